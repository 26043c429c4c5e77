package migratesublazy

// Optional sub-reconcilers whose call runs only under a condition that
// is not a written nil check of the chain (review R6 of s106: a bool
// gate set with the sub-reconciler, a method that checks it, a switch's
// case nil; -fix made the patcher at the read, outside the condition,
// and with the gate off every reconcile panicked on a nil pointer). The
// write stays, naming the condition's line. A chain no nil link reaches
// (a struct held by value) moves under any condition, and so does a call
// every branch after the read reaches but an error's.

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Beacon struct {
	client.Client
	gate bool
	beam *beamStatus
	bulb *bulbStatus
	bell *bellStatus
	fog  fogStatus
	mast *mastStatus
}

type beamStatus struct{ c client.Client }

func (s *beamStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 51
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 50 names its client b\.beam\.c, and runs only as the condition b\.gate at line 49 decides, after the read the patcher is made at: made there, the patcher would read b\.beam\.c on every path, where b\.beam may be nil\)$`
}

// SetupWithManager sets the gate and beam together.
func (b *Beacon) SetupWithManager(c client.Client, gate bool) {
	b.gate = gate
	if gate {
		b.beam = &beamStatus{c: c}
	}
}

func (b *Beacon) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := b.Get(ctx, key, w); err != nil {
		return err
	}
	if b.gate {
		return b.beam.reconcile(ctx, w)
	}
	return nil
}

type bulbStatus struct{ c client.Client }

func (s *bulbStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 52
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 71 names its client b\.bulb\.c, and runs only as the condition b\.lit\(\) at line 70 decides, after the read the patcher is made at: made there, the patcher would read b\.bulb\.c on every path, where b\.bulb may be nil\)$`
}

// lit checks the chain in a method.
func (b *Beacon) lit() bool { return b.bulb != nil }

func (b *Beacon) shine(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := b.Get(ctx, key, w); err != nil {
		return err
	}
	if b.lit() {
		if err := b.bulb.reconcile(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

type bellStatus struct{ c client.Client }

func (s *bellStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 53
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 95 names its client b\.bell\.c, and runs only as the condition b\.bell == nil at line 92 decides, after the read the patcher is made at: made there, the patcher would read b\.bell\.c on every path, where b\.bell may be nil\)$`
}

// ring returns early in a switch's case nil.
func (b *Beacon) ring(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := b.Get(ctx, key, w); err != nil {
		return err
	}
	switch b.bell {
	case nil:
		return nil
	}
	return b.bell.reconcile(ctx, w)
}

// fogStatus is held by value: its client is read with no nil pointer on
// the way, and the patcher is made at the read under any condition.
type fogStatus struct{ c client.Client }

func (s fogStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 54
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: `
}

func (b *Beacon) horn(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := b.Get(ctx, key, w); err != nil {
		return err
	}
	if b.gate {
		return b.fog.reconcile(ctx, w)
	}
	return nil
}

type mastStatus struct{ c client.Client }

func (s *mastStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 55
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: `
}

// hoist's gate decides a count, not whether the call runs, and an
// error's early return is no gate either.
func (b *Beacon) hoist(ctx context.Context, key client.ObjectKey) (int, error) {
	w := &v1.Widget{}
	if err := b.Get(ctx, key, w); err != nil {
		return 0, err
	}
	n := 1
	if b.gate {
		n = 2
	}
	if err := ctx.Err(); err != nil {
		return n, err // an error's branch: not a gate
	}
	return n, b.mast.reconcile(ctx, w)
}
