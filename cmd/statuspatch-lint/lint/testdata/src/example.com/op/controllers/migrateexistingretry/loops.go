package migrateexistingretry

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A decision whose own loop skips an element (continue) and stops (break):
// both branch statements are the inner loop's, inside the moved lines, so
// the decision moves into Retry as a whole (helper U's project C, s104:
// "the continue at line N skips more than the write", though its loop was
// inside the decision).
func (r *OrderReconciler) innerLoop(ctx context.Context, req ctrl.Request, sizes []int) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		for _, s := range sizes {
			if s < 0 {
				continue
			}
			if s == 0 {
				break
			}
			order.Status.Size += s
		}
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The same with -fix's own patcher.
func (r *OrderReconciler) innerLoopOwn(ctx context.Context, req ctrl.Request, sizes []int) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !order.Status.Ready {
		for _, s := range sizes {
			if s < 0 {
				continue
			}
			order.Status.Size += s
		}
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The loop itself is the decision's statement: its continue is its own.
func (r *OrderReconciler) topLoopOwn(ctx context.Context, req ctrl.Request, sizes []int) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	for _, s := range sizes {
		if s < 0 || order.Status.Ready {
			continue
		}
		order.Status.Size += s
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
