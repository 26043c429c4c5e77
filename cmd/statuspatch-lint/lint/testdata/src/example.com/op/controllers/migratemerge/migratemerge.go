// Package migratemerge: the blind merge patches kubebuilder users write
// (issue 51): client.Merge, a base taken late, and the reconciler that
// writes with Update, re-reads, then patches with client.Merge. -fix moves
// them all: the patcher is made at the read, a re-read after a write
// fetches the patcher anew, each write is its Flush.
package migratemerge

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type WidgetReconciler struct {
	client.Client
}

// The reconciler: Update, re-Get, Patch with client.Merge.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
	if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, err
	}
	widget.Status.Size = widget.Spec.Size
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "True", Reason: "Reconciling"})
	if err := r.Status().Patch(ctx, widget, client.Merge); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// client.Merge after a read, the error as err := then if.
func (r *WidgetReconciler) merge(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	err := r.Get(ctx, key, w)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Merge) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The base taken at the write, after the changes (an empty patch).
func (r *WidgetReconciler) lateInline(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(w.DeepCopy())) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\); this patch sends nothing: the base is taken after the status changes at line 60; take it before them, or use the generated patcher$`
}

// The patch taken just before the write, after the changes.
func (r *WidgetReconciler) latePatch(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True"})
	w.Status.Size++
	patch := client.MergeFrom(w.DeepCopy())
	return r.Status().Patch(ctx, w, patch) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\); this patch sends nothing: the base is taken after the status changes at line 71; take it before them, or use the generated patcher$`
}

// The base copied after the changes, and used again: it stays.
func (r *WidgetReconciler) lateBaseKept(ctx context.Context, key client.ObjectKey) (bool, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return false, err
	}
	w.Status.Ready = true
	base := w.DeepCopy()
	err := r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\); this patch sends nothing: the base is taken after the status changes at line 82; take it before them, or use the generated patcher$`
	return base.Status.Ready, err
}

// A base taken after a write of the spec is not late: the patcher is made
// there.
func (r *WidgetReconciler) baseAfterUpdate(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size = 3
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Size = 3
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Two writes with a re-read between, the error assigned to the function's
// err: the Fetch assigns it too.
func (r *WidgetReconciler) rereadAssigned(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	if err = r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = false
	if err = r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	for i := 0; i < 2; i++ {
		if err = r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size = i
		if err = r.Status().Patch(ctx, w, client.Merge); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// A re-read whose error is ignored is no Fetch (it would take a nil
// object on error): the patcher is made after the Get.
func (r *WidgetReconciler) rereadIgnored(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = false
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	_ = r.Get(ctx, key, w)
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Merge) // want `^handwritten status write to Widget`
}

// Not moved: each finding says why.

func (r *WidgetReconciler) mergeGiven(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Merge) // want `\(not moved to the patcher: w is a parameter of mergeGiven: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
}

func (r *WidgetReconciler) mergeSpecToo(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size = 1
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, client.Merge) // want `\(not moved to the patcher: w.Spec is changed at line 156: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *WidgetReconciler) applied(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Apply, client.FieldOwner("me")) // want `\(not moved to the patcher: the apply does not force ownership \(client.ForceOwnership\), and apply mode does: move it by hand if taking the fields from other managers is what you want\)`
}

func (r *WidgetReconciler) raw(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, client.RawPatch("application/merge-patch+json", []byte(`{"status":{"ready":true}}`))) // want `\(not moved to the patcher: the patch client.RawPatch\("application/merge-patch\+json", \[\]byte\(.*\)\) is not client.MergeFrom\(base\) or client.Merge: Flush sends a merge patch of the status changes since the patcher was made; move it by hand\)`
}

// Not reported: writes of the object itself (its spec, metadata), with
// client.Merge too.
func (r *WidgetReconciler) mainResource(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size = 2
	if err := r.Patch(ctx, w, client.Merge); err != nil {
		return err
	}
	return r.Patch(ctx, w, client.MergeFrom(w.DeepCopy()))
}
