// Package migrate: handwritten status writes of a kind with a generated
// patcher that the package does not import yet (the command passes it with
// -patchers). -fix moves the common shapes onto the patcher and imports
// its package; what it cannot move safely keeps the write, with why.
package migrate

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// The kubebuilder shape: read, copy, set the status, patch.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	widget := &v1.Widget{}
	if err := r.Get(ctx, key, widget); err != nil {
		return client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	widget.Status.Ready = widget.Spec.Size > 0
	widget.Status.Size = widget.Spec.Size
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True"})
	if err := r.Status().Patch(ctx, widget, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return nil
}

// Already locked, through the client field.
type FieldReconciler struct {
	Client client.Client
}

func (r *FieldReconciler) locked(ctx context.Context, w *v1.Widget) error {
	before := w.DeepCopy()
	w.Status.Size++
	return r.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})) // want `^handwritten status write to Widget`
}

// The patch built from an inline copy.
func (r *Reconciler) inline(ctx context.Context, w *v1.Widget) error {
	patch := client.MergeFrom(w.DeepCopy())
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, patch) // want `^handwritten status write to Widget`
}

// Update after the Get: the patcher is made right after the read.
func (r *Reconciler) update(ctx context.Context, key client.ObjectKey, ready bool) error {
	w := &v1.Widget{}
	err := r.Get(ctx, key, w)
	if err != nil {
		return err
	}
	if ready {
		w.Status.Ready = true
	}
	err = r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	return err
}

// A helper that writes the status of an object it is given.
func (r *Reconciler) setSize(ctx context.Context, w *v1.Widget, size int) error {
	orig := w.DeepCopy()
	w.Status.Size = size
	if w.Name != "" && w.GetNamespace() != "" {
		w.Status.Ready = true
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(orig)) // want `^handwritten status write to Widget`
}

// The base is used again after the write: it stays, the patcher is made
// after it.
func (r *Reconciler) baseKept(ctx context.Context, w *v1.Widget) (bool, error) {
	base := w.DeepCopy()
	w.Status.Ready = true
	err := r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
	return base.Status.Ready != w.Status.Ready, err
}

// The object passed to a function of the package that changes only its
// status, or reads it.
func (r *Reconciler) helpers(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	markReady(w, isBig(w))
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

func markReady(w *v1.Widget, ready bool) { // want markReady:`^statusOnly\[0\]$`
	w.Status.Ready = ready
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True"})
}

func isBig(w *v1.Widget) bool { return w.Spec.Size > 10 && w.GetName() != "" } // want isBig:`^statusOnly\[0\]$`

// A name the fix would use is taken: it picks another.
func (r *Reconciler) nameTaken(ctx context.Context, w *v1.Widget) error {
	wPatcher := "taken"
	_ = wPatcher
	base := w.DeepCopy()
	w.Status.Ready = false
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// Not moved, with why.

func (r *Reconciler) specToo(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Spec.Size = 3
	w.Status.Size = 3
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w.Spec is changed at line 115: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) labels(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Finalizers[0] = "done"
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w.Finalizers is changed at line 122: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) method(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Grow()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w.Grow is called at line 128, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

func (r *Reconciler) reassigned(ctx context.Context, w, other *v1.Widget) error {
	base := w.DeepCopy()
	w = other
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is reassigned at line 134\)$`
}

func (r *Reconciler) passedOn(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	compute(w)
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is passed to compute at line 140, where w is passed to resize at line 144, where w.Spec is changed at line 146: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func compute(w *v1.Widget) { resize(w, 2) }

func resize(w *v1.Widget, n int) { w.Spec.Size = n }

// Two writes from one base: one patcher, two Flushes.
func (r *Reconciler) twoWrites(ctx context.Context, w *v1.Widget, failed bool) error {
	base := w.DeepCopy()
	if failed {
		w.Status.Ready = false
		return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) patchShared(ctx context.Context, w *v1.Widget) error {
	patch := client.MergeFrom(w.DeepCopy())
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, w, patch); err != nil { // want `\(not moved to the patcher: the patch patch is used elsewhere: at line 165, other than as the patch of a status write of w\)`
		return err
	}
	return r.Patch(ctx, w, patch)
}

// Not moved: the finding says which part of the shapes is missing.

func (r *Reconciler) baseFromCaller(ctx context.Context, w, base *v1.Widget) error {
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is a parameter of baseFromCaller: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
}

func (r *Reconciler) updateGiven(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of updateGiven: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
}

func (r *Reconciler) writer(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	sw := r.Status()
	w.Status.Ready = true
	return sw.Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: the status writer is not called as c.Status\(\).Patch\(...\)\)$`
}

// Objects from elsewhere than a Get (a slice, not a List's items; an event).
func (r *Reconciler) each(ctx context.Context, ws []*v1.Widget) error {
	for _, w := range ws {
		w.Status.Ready = false
		if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is an element of the slice ws at line 188, a copy the model cannot show fresh \(what the slice holds is put there where the model does not follow it\): make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(w\)\), which reads it fresh, and Flush it here\)$`
			return err
		}
	}
	return nil
}

// A predicate's object, from the event (spark-operator's event filter):
// its kind is the asserted type.
func (r *Reconciler) fromEvent(ctx context.Context, o client.Object) error {
	w, ok := o.(*v1.Widget)
	if !ok {
		return nil
	}
	w.Status.Ready = false
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
}

func (r *Reconciler) patchGiven(ctx context.Context, w *v1.Widget, patch client.Patch) error {
	return r.Status().Patch(ctx, w, patch) // want `\(not moved to the patcher: w is a parameter of patchGiven: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
}

func (r *Reconciler) element(ctx context.Context, ws []v1.Widget) error {
	return r.Status().Update(ctx, &ws[0]) // want `\(not moved to the patcher: the object &ws\[0\] is an element of the slice ws, a copy the model cannot show fresh: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(&ws\[0\]\)\), which reads it fresh, and Flush it here\)$`
}

func (r *Reconciler) gadget(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopy()
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^handwritten status write to Gadget: generate a GadgetStatusPatcher with statuspatch-gen`
}
