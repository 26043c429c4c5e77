// Package migratechainunsent: links of a helper chain that change the
// object outside its status before handing it on to a helper whose
// Status().Update leaves those changes unsent. The chain moves as a
// one-level helper does: every caller up the chain makes the patcher with
// patcher.WithNonStatusChangesUnsent(), which leaves them unsent too
// (and, after the Flush, the object is the server's answer, as after the
// Update). At cb49be1 each chain stayed ("the patcher writes only the
// status"). A change of the object's identity still keeps the chain.
package migratechainunsent

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// One link changes the spec, then hands w on.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.resize(ctx, w)
}

func (r *Reconciler) resize(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 3
	return r.markSized(ctx, w)
}

func (r *Reconciler) markSized(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Two links deep: the lower one labels w; the top caller's patcher takes
// the option.
func (r *Reconciler) Deep(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.deepVia(ctx, w)
}

func (r *Reconciler) deepVia(ctx context.Context, w *v1.Widget) error {
	return r.deepLabel(ctx, w)
}

func (r *Reconciler) deepLabel(ctx context.Context, w *v1.Widget) error {
	w.Labels = map[string]string{"seen": "yes"}
	return r.deepLeaf(ctx, w)
}

func (r *Reconciler) deepLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A link that defers its call and changes the spec below it: the
// deferred write runs after the change, which the Update left unsent and
// the patcher made with the option leaves unsent.
func (r *Reconciler) Deferred(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.deferVia(ctx, w)
}

func (r *Reconciler) deferVia(ctx context.Context, w *v1.Widget) error {
	defer r.deferLeaf(ctx, w)
	w.Spec.Size = 3
	return nil
}

func (r *Reconciler) deferLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A link that renames w: the Update goes to the new name, the patcher to
// the object it read. The chain stays, naming the change.
func (r *Reconciler) Renamed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.rename(ctx, w)
}

func (r *Reconciler) rename(ctx context.Context, w *v1.Widget) error {
	w.Name += "-copy"
	return r.markCopied(ctx, w)
}

func (r *Reconciler) markCopied(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markCopied: its caller at line 99 hands on w, a parameter of rename, and w\.Name is changed at line 98: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The caller writes w's status itself after the chain: one patcher, its
// own, which takes the option the link's change needs.
func (r *Reconciler) Own(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.ownResize(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *Reconciler) ownResize(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 4
	return r.ownLeaf(ctx, w)
}

func (r *Reconciler) ownLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The caller writes w's status itself before the chain: its own patcher,
// made without the option (nothing changes outside the status before its
// write), would refuse the link's change at the chain's Flush. The chain
// stays, naming both.
func (r *Reconciler) OwnBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	return r.beforeResize(ctx, w)
}

func (r *Reconciler) beforeResize(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 4
	return r.beforeLeaf(ctx, w)
}

func (r *Reconciler) beforeLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of beforeLeaf: its caller at line 149 hands on w, a parameter of beforeResize, and its caller at line 144 also writes w's status, on a patcher -fix makes without patcher\.WithNonStatusChangesUnsent\(\), and w\.Spec is changed at line 148: the patcher writes only the status \(Flush returns patcher\.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}
