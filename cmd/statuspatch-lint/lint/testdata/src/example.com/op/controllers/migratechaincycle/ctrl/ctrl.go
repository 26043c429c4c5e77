package ctrl

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/controllers/migratechaincycle/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ client.Client }

// MarkA's write stays: this one, after it, stays too.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := status.MarkA(ctx, r.Client, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to status\.MarkA at line 19, where its status is written at status\.go:18, a write -fix does not move with the caller's\)$`
}
