// Package status: MarkA, exported, and markB, each called before the
// other (P, Q), so that the Fix of one asks the other's, which asks it
// again: taken as moving. Both stay (each is handed the object after the
// other's write, which stays), and MarkA's HelperFact must not be
// exported from the fix asked under that assumption: at 7a366da it was,
// and ctrl's own write moved beside MarkA's Update, which stays.
package status

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func MarkA(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkA:`^why$`
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of MarkA: its caller at line 45: w is passed to markB at line 42, where its status is written at line 23, a write -fix does not move with the caller's\)$`
}

func markB(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Size = 1
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of markB: its caller at line 34: w is passed to MarkA at line 31, where its status is written at line 18, a write -fix does not move with the caller's\)$`
}

func P(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if err := MarkA(ctx, c, w); err != nil {
		return err
	}
	return markB(ctx, c, w)
}

func Q(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if err := markB(ctx, c, w); err != nil {
		return err
	}
	return MarkA(ctx, c, w)
}
