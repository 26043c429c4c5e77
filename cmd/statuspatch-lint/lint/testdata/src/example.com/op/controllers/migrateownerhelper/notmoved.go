package migrateownerhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// unowned writes the object without a field owner, then hands it to a
// helper writing with one: the helper would take the caller's patcher,
// which sends none.
func (r *Reconciler) unowned(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.markOwned(ctx, w)
}

func (r *Reconciler) markOwned(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: w is a parameter of markOwned: its caller at line 22 also writes w's status at line 19 with no field owner, and this write has the field owner controllerName: the caller's patcher, which it would take, sends one field owner \(patcher\.WithFieldOwner\)\)$`
}

// owned writes with a field owner, and its helper without: the helper
// would take the caller's patcher, which sends the caller's owner.
func (r *Reconciler) owned(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w, client.FieldOwner(controllerName)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.markUnowned(ctx, w)
}

func (r *Reconciler) markUnowned(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: .*\(not moved to the patcher: w is a parameter of markUnowned: its caller at line 41 also writes w's status at line 38 with the field owner controllerName, and this write has no field owner: the caller's patcher, which it would take, sends one field owner \(patcher\.WithFieldOwner\)\)$`
}

// namedOwner's field owner is its receiver's field: its callers cannot
// name it.
type namedOwner struct {
	client.Client
	name string
}

func (n *namedOwner) reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := n.Get(ctx, key, w); err != nil {
		return err
	}
	return n.mark(ctx, w)
}

func (n *namedOwner) mark(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return n.Status().Update(ctx, w, client.FieldOwner(n.name)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: the write's field owner n\.name is not a literal or a constant or variable of the package: the callers make the patcher with it\)$`
}

// shadowing declares a local owner before its Get: the package's is
// another there.
func (r *Reconciler) shadowing(ctx context.Context, key client.ObjectKey) error {
	controllerName := key.Name
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	_ = controllerName
	return r.markShadowed(ctx, w)
}

func (r *Reconciler) markShadowed(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: w is a parameter of markShadowed: its caller at line 78 would make the patcher with patcher\.WithFieldOwner\(controllerName\), where the field owner's controllerName is another there\)$`
}

// mixedPhases hands the object to two helpers, which would take one
// patcher, with different field owners: the later stays.
func (r *Reconciler) mixedPhases(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.firstPhase(ctx, w); err != nil {
		return err
	}
	return r.secondPhase(ctx, w)
}

func (r *Reconciler) firstPhase(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 1
	return r.Status().Update(ctx, w, client.FieldOwner("first")) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) secondPhase(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner("second")) // want `^handwritten status write to Widget: .*\(not moved to the patcher: w is a parameter of secondPhase: its caller at line 96 passes the same patcher to the status write at line 101, which has the field owner "first", and this one the field owner "second": a patcher sends one field owner \(patcher\.WithFieldOwner\)\)$`
}

// MarkExported is exported: its callers in other packages make their
// patchers from what the helper's package says of it, which names no
// field owner.
func (r *Reconciler) exported(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return MarkExported(ctx, r.Client, w)
}

func MarkExported(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkExported:"why"
	w.Status.Ready = true
	return c.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: the write has the field owner controllerName, and MarkExported is exported: -fix does not carry a field owner to the patchers of callers in other packages; make them with patcher\.WithFieldOwner\(controllerName\) by hand\)$`
}
