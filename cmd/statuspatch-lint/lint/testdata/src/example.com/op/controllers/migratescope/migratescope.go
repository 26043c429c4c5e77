// Package migratescope: cluster-api's per-reconcile scope. Reconcile reads
// the object with Get into a field of a scope struct and hands the scope
// to reconcileNormal or reconcileDelete, each writing the status through
// w := s.Widget. -fix makes the patcher after that Get and passes it
// beside the scope; each write is a Flush of it. A write naming the field
// itself, or of a scope whose field is read by no Get, stays, naming the
// field and the Get that reads it.
package migratescope

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// scope is what one reconcile works on.
type scope struct {
	Widget *v1.Widget
	Owner  string
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	s := &scope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	if !s.Widget.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, s)
	}
	return r.reconcileNormal(ctx, s)
}

// reconcileNormal takes the object out of the scope into a variable.
func (r *Reconciler) reconcileNormal(ctx context.Context, s *scope) error {
	w := s.Widget
	switch w.Status.Size {
	case 0:
		w.Status.Size = w.Spec.Size
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	s.Owner = "normal"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// reconcileDelete too.
func (r *Reconciler) reconcileDelete(ctx context.Context, s *scope) error {
	w := s.Widget
	w.Status.Ready = false
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// direct is a scope whose helper writes the field itself.
type direct struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileDirect(ctx context.Context, key client.ObjectKey) error {
	d := &direct{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, d.Widget); err != nil {
		return err
	}
	return r.writeField(ctx, d)
}

func (r *Reconciler) writeField(ctx context.Context, d *direct) error {
	d.Widget.Status.Ready = false
	return r.Status().Update(ctx, d.Widget) // want `^handwritten status write to Widget: .*\(not moved to the patcher: the object d\.Widget is the struct field Widget, read with Get in Reconciler\.reconcileDirect \(line 67\): -fix makes a patcher at a Get into a variable, not into a struct field; make NewWidgetStatusPatcher after that Get, keep it beside Widget, and call its Flush\(ctx\) here\)$`
}

// orphan is read with Get nowhere in the package: its reason says so.
type orphan struct {
	Widget *v1.Widget
}

func (r *Reconciler) fromOrphan(ctx context.Context, o *orphan) error {
	w := o.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: .*w is o\.Widget, a struct field no Get of this package reads into: -fix makes a patcher at a Get into a variable, not into a struct field; make NewWidgetStatusPatcher where Widget is read, keep it beside Widget, and call its Flush\(ctx\) here\)$`
}

// owned's method only reads another field of the scope: a call of it, in
// the caller or between the helper's writes, leaves Widget as read.
type owned struct {
	Widget *v1.Widget
	Owner  string
}

func (o *owned) owner() string { return "owner " + o.Owner }

func (r *Reconciler) reconcileOwned(ctx context.Context, key client.ObjectKey) error {
	s := &owned{Widget: &v1.Widget{}, Owner: "me"}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	if s.owner() == "" {
		return nil
	}
	return r.writeOwned(ctx, s)
}

func (r *Reconciler) writeOwned(ctx context.Context, s *owned) error {
	w := s.Widget
	w.Status.Ready = s.owner() != ""
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
