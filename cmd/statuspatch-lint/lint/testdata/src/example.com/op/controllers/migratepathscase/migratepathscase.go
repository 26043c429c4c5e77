// Package migratepathscase: a write in one case of a switch, and a
// helper whose write stays called in another case: the helper cannot run
// between the read and the write, on no path of the function's graph
// (life.reaches). The write moves; at cb49be1 it stayed, blamed on the
// helper ("w is handed to r.markEmpty at line 25, whose status write at
// line 37 stays: it moves the resourceVersion ... after the patcher's
// base is taken").
package migratepathscase

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// A switch whose first case hands w to a helper whose write stays (its
// other caller does not read w), and whose second case writes w itself:
// the helper cannot run before that write.
func (r *Reconciler) Phases(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	switch w.Spec.Size {
	case 0:
		if err := r.markEmpty(ctx, w); err != nil {
			return err
		}
	case 1:
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}
	return nil
}

func (r *Reconciler) markEmpty(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 0
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markEmpty: its caller at line 49: w is not read with Get in this function before its call of markEmpty: where its status changes start is not seen; make NewWidgetStatusPatcher there and pass it\)$`
}

// Fresh builds its object: markEmpty's write stays.
func (r *Reconciler) Fresh(ctx context.Context) error {
	w := &v1.Widget{}
	return r.markEmpty(ctx, w)
}

// An early return's branch hands w to the helper: the final write runs
// on the other path only.
func (r *Reconciler) Early(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size == 0 {
		return r.markEmpty(ctx, w)
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The same switch in a loop: the first turn's helper runs before the
// second turn's write, which stays, naming it.
func (r *Reconciler) Turns(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for i := range 2 {
		switch i {
		case 0:
			if err := r.markEmpty(ctx, w); err != nil {
				return err
			}
		case 1:
			w.Status.Ready = true
			if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is handed to r\.markEmpty at line 76, whose status write at line 43 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 70, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
				return err
			}
		}
	}
	return nil
}
