package createorpatchfix

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (s110's adversary): the mutate's last statement, its return,
// stays in the mutate; moving the status statements before it must not
// change what it returns. Each of these was moved, and the return then
// read a status not yet decided, handed the object to a function before
// the status changed, or used a local declared by a moved statement.

func readyErr(ready bool) error {
	if !ready {
		return errors.New("not ready")
	}
	return nil
}

// returnReadsStatus: the return reads the status the mutate set.
func returnReadsStatus(ctx context.Context, c client.Client, w *v1.Widget) error { // want returnReadsStatus:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 28 in the mutate: line 29, the mutate's return, reads the status`
		w.Status.Ready = w.Spec.Size > 0
		return readyErr(w.Status.Ready)
	})
	return err
}

func validate(w *v1.Widget) error { // want validate:"statusOnly\\[0\\]"
	if w.Spec.Size < 0 {
		return errors.New("negative size")
	}
	return nil
}

// returnHands: the return hands the object to a function.
func returnHands(ctx context.Context, c client.Client, w *v1.Widget) error { // want returnHands:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 44 in the mutate: line 45 hands w to validate, which may read or change its status`
		w.Status.Size = w.Spec.Size
		return validate(w)
	})
	return err
}

func fill(s *v1.WidgetStatus) error {
	s.Ready = true
	return nil
}

// returnUsesMoved: the return uses a local a status statement declares.
func returnUsesMoved(ctx context.Context, c client.Client, w *v1.Widget) error { // want returnUsesMoved:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 58 in the mutate: line 59 uses err, which line 58 declares in the mutate`
		err := fill(&w.Status)
		return err
	})
	return err
}
