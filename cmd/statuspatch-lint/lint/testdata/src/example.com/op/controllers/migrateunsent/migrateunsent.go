// Package migrateunsent: status subresource writes (Status().Update,
// Status().Patch) after the code changed the object outside its status
// in memory. The write leaves those changes unsent; the patcher made with
// patcher.WithNonStatusChangesUnsent() leaves them unsent too, so the
// writes move onto it. A change of the object's identity keeps the write.
package migrateunsent

import (
	"context"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type WidgetReconciler struct {
	client.Client
}

// A spec default set in memory, then the status written by Update.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		w.Spec.Size = 1
	}
	w.Status.Size = w.Spec.Size
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// label sets a label (spark-operator's configWebUI sets the spec's
// SparkConf).
func label(w *v1.Widget) {
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["ui"] = "on"
}

// A function of the package changes the labels.
func (r *WidgetReconciler) labelled(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	label(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The spec's map in a new object a Create decodes into (spark-operator's
// createSparkApplication); a merge patch.
func (r *WidgetReconciler) shared(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	child := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-child", Labels: w.Spec.Labels}}
	if err := r.Create(ctx, child); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The object's name changed: the write goes to another object than the
// one read. It stays.
func (r *WidgetReconciler) renamed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Name += "-copy"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: w\.Name is changed at line \d+: the patcher writes only the status \(Flush returns patcher\.ErrNonStatusChange\)`
}

// The spec changed and the object handed to a function value, not
// followed: it may do more than change the spec. It stays, and the
// reason is that call, not the change left unsent.
func (r *WidgetReconciler) handed(ctx context.Context, key client.ObjectKey, f func(*v1.Widget)) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size++
	f(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: w is passed to the function value f at line \d+, which is not followed`
}

// updateStatus writes the object it is given (spark-operator's
// updateScheduledSparkApplicationStatus): its caller makes the patcher.
func (r *WidgetReconciler) updateStatus(ctx context.Context, w *v1.Widget) error {
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The caller changes the spec before the helper's write.
func (r *WidgetReconciler) scheduled(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size = 3
	w.Status.Ready = true
	return r.updateStatus(ctx, w)
}
