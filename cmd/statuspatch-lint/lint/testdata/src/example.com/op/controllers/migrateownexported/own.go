// Package migrateownexported: exported status helpers (not links of a
// chain) whose callers are all in their own package, under the module's
// driver (Config.Module, the groups resolved). One whose caller reads the
// object with Get moves with it: the module is analyzed, and its one
// caller is here. One whose caller cannot make the patcher stays, naming
// that caller's line and why. At cb49be1 the first said "is exported and
// no package of the module calls it", false; one whose caller writes the
// object itself too said "move them by hand": it moves with it, one life.
package migrateownexported

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// MarkReady's one caller, Reconcile, reads w with Get.
func MarkReady(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkReady:`^why$` MarkReady:`^helper\(obj 2, client 1 dropped, WidgetStatusPatcher\)$`
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return MarkReady(ctx, r.Client, w)
}

// MarkFailed's one caller builds its object: nothing is read.
func MarkFailed(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkFailed:`^why$`
	w.Status.Size = 1
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of MarkFailed: its caller at line 45: w is not read with Get in this function before its call of MarkFailed: where its status changes start is not seen; make NewWidgetStatusPatcher there and pass it\)$`
}

func (r *Reconciler) Fresh(ctx context.Context) error {
	w := &v1.Widget{}
	w.Name = "fresh"
	return MarkFailed(ctx, r.Client, w)
}

// MarkSized's one caller writes w's status itself too, before the call:
// one life, the caller's patcher passed to the helper.
func MarkSized(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkSized:`^why$` MarkSized:`^helper\(obj 2, client 1 dropped, WidgetStatusPatcher\)$`
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *Reconciler) Sized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	return MarkSized(ctx, r.Client, w)
}
