package migratesublazy

// The receiver of the method declaring a function literal is no nil
// link of the chain: spark-operator's reconcileFailedSubmissionSparkApplication
// reads the object in a RetryOnConflict literal, returns early on a
// check of it, and calls r.updateSparkApplicationStatus, whose client is
// r.client. NG's first cut (s106) kept it, "runs only as the condition
// ... decides ... where r may be nil": the receiver it skips in a method
// it counted in the method's literal. It moves.

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Lamp struct {
	client client.Client
}

func (r *Lamp) updateLampStatus(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Lamp) Reconcile(ctx context.Context, key client.ObjectKey) error {
	run := func() error {
		w := &v1.Widget{}
		if err := r.client.Get(ctx, key, w); err != nil {
			return err
		}
		if w.Spec.Size > 3 {
			return errors.New("too big")
		}
		w.Status.Size = 61
		return r.updateLampStatus(ctx, w)
	}
	return run()
}
