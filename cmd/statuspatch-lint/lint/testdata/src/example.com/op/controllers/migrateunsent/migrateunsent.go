// Package migrateunsent: status subresource writes (Status().Update,
// Status().Patch) after the code changed the object outside its status
// in memory. The write leaves those changes unsent; the patcher made with
// patcher.WithNonStatusChangesUnsent() leaves them unsent too, so by
// default (-nonstatus-unsent) the writes move onto it. A change of the
// object's identity (ObjectMeta or TypeMeta replaced whole included), a
// use -fix does not follow, and an apply keep the write, each saying so.
package migrateunsent

import (
	"context"
	"maps"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"example.com/op/objutil"
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
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: w\.Name is changed at line \d+: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The spec changed and the object handed to a function value, not
// followed: it may change the object's identity. It stays, and the
// reason is that call, not the change left unsent.
func (r *WidgetReconciler) handed(ctx context.Context, key client.ObjectKey, f func(*v1.Widget)) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size++
	f(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: w is passed to the function value f at line \d+, which is not followed: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
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

// The references the reference model follows (migratealias, migratelocal):
// the spec's map handed to maps.Copy, the address of a spec field taken,
// a local alias of the spec's map changed. All left unsent: moved.
func (r *WidgetReconciler) references(ctx context.Context, key client.ObjectKey, extra map[string]string) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	maps.Copy(w.Spec.Labels, extra)
	size := &w.Spec.Size
	*size = 2
	l := w.Spec.Labels
	l["k"] = "v"
	w.Status.Size = *size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The finalizers and the labels, outside the status and
// its identity: moved, onto a merge patch's patcher.
func (r *WidgetReconciler) metadata(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Finalizers = append(w.Finalizers, "example.com/cleanup")
	w.Labels = map[string]string{"seen": "yes"}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// ObjectMeta replaced whole: its name and namespace with it. It stays.
func (r *WidgetReconciler) metaReplaced(ctx context.Context, key client.ObjectKey, meta metav1.ObjectMeta) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.ObjectMeta = meta
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w\.ObjectMeta is changed at line \d+: that is a change of the object's identity`
}

// TypeMeta replaced whole. It stays.
func (r *WidgetReconciler) typeReplaced(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.TypeMeta = metav1.TypeMeta{Kind: "Widget", APIVersion: "op.example.com/v1"}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w\.TypeMeta is changed at line \d+: that is a change of the object's identity`
}

// The spec changed by a function of another package: its summary
// (ParamsFact.Unsent) says it changes at most the status and what a
// status subresource write leaves unsent. Moved.
func (r *WidgetReconciler) resizedElsewhere(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Resize(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The labels changed by a function of another package: outside the
// status and the identity. Moved.
func (r *WidgetReconciler) relabelledElsewhere(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Relabel(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The spec changed through the address of a role a function of another
// package returns (lws's GetRoleConfigs), and through the spec's map
// another returns (spark-operator's GetWebUIIngressTLS). Moved.
func (r *WidgetReconciler) returnedElsewhere(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.RoleOf(w, 0).Name = "leader"
	objutil.SpecLabels(w)["role"] = "leader"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// ObjectMeta replaced whole by a function of another package: its
// summary (ParamsFact.UnsentWhy) names the change of identity. It stays.
func (r *WidgetReconciler) adoptedElsewhere(ctx context.Context, key client.ObjectKey, from *v1.Widget) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Adopt(w, from)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.Adopt at line \d+, where w.ObjectMeta is changed at objutil.go:\d+: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A server-side apply of a configuration: -fix moves no apply onto a
// patcher made with the option, so the spec changed in memory keeps it,
// as with -nonstatus-unsent=false.
func (r *WidgetReconciler) applied(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Spec.Size = 2
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, client.FieldOwner("widget-controller"), client.ForceOwnership) // want `in apply mode: .*\(not moved to the patcher: w.Spec is changed at line \d+: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The labels and finalizers changed through ObjectMeta: fields of it
// outside the identity, left unsent as w.Labels is. Moved.
func (r *WidgetReconciler) metaLabels(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.ObjectMeta.Labels = map[string]string{"seen": "yes"}
	w.ObjectMeta.Finalizers = append(w.ObjectMeta.Finalizers, "example.com/cleanup")
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The name changed through ObjectMeta: the identity. It stays.
func (r *WidgetReconciler) metaName(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.ObjectMeta.Name = "other"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w\.ObjectMeta is changed at line \d+: that is a change of the object's identity`
}
