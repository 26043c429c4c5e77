package migratealiases

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetScope struct {
	Widget *v1.Widget
}

// A copy handed to a helper whose write stays: the copy is the same
// object on the server, and the helper's write moves the resourceVersion
// the caller's patcher would hold.
func (r *Reconciler) copyHanded(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.markSpec(ctx, w.DeepCopy()); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w\.DeepCopy\(\), a copy of w, is handed to r\.markSpec at line 23, whose status write at line 47 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 20, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
}

// The scope holding the object handed whole.
func (r *Reconciler) scopeHanded(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	s := &widgetScope{Widget: w}
	if err := r.markScope(ctx, s); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: s, holding w in its field Widget, is handed to r\.markScope at line 37, whose status write at line 52 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 33, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
}

func (r *Reconciler) markSpec(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 3
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: `
}

func (r *Reconciler) markScope(ctx context.Context, s *widgetScope) error {
	s.Widget.Spec.Size = 3
	return r.Status().Update(ctx, s.Widget) // want `\(not moved to the patcher: `
}

// A copy handed to a function that only reads it: the write moves.
func (r *Reconciler) copyLogged(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	describe(w.DeepCopy())
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func describe(w *v1.Widget) string { // want describe:"statusOnly\\[0\\]"
	return fmt.Sprintf("%s/%s", w.Namespace, w.Name)
}

// A pointer to a value read with Get, handed to the kept helper.
func (r *Reconciler) addressHanded(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	p := &w
	if err := r.markSpec(ctx, p); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, &w) // want `\(not moved to the patcher: p, which is w, is handed to r\.markSpec at line 77, whose status write at line 47 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 73, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
}
