package migratesublazy

// A client set through a pointer to the field that holds it (review R5
// of s105: -fix counted taking the address as the set, made the patcher
// right after `p := &k.sub`, before `*p = ...`, or at the read when the
// pointer was taken before it, and the project's test panicked on a nil
// pointer). A local pointer used only through (*p, p.f, a call's
// argument) sets the field where it is written through; one held where
// -fix does not follow it keeps the write, naming the line.

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Quay struct {
	client.Client
	sub   *quayStatus
	slip  *slipStatus
	berth *berthStatus
	held  []**berthStatus
}

type quayStatus struct{ c client.Client }

func (s *quayStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 21
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

// The pointer is taken after the read: the patcher is made after the
// write through it.
func (q *Quay) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	p := &q.sub
	if *p == nil {
		*p = &quayStatus{c: q.Client}
	}
	return q.sub.reconcile(ctx, w)
}

type slipStatus struct{ c client.Client }

func (s *slipStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 22
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

// The pointer is taken before the read, written through after it.
func (q *Quay) moor(ctx context.Context, key client.ObjectKey) error {
	p := &q.slip
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	if *p == nil {
		*p = &slipStatus{c: q.Client}
	}
	return q.slip.reconcile(ctx, w)
}

type berthStatus struct{ c client.Client }

func (s *berthStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 23
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 86 names its client q\.berth\.c, which may be set after the read the patcher is made at: the address of q\.berth is taken at line 80 and held where -fix does not follow it\)$`
}

// The pointer is stored: a write through the stored copy may set it.
func (q *Quay) dock(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	q.held = append(q.held, &q.berth)
	for _, h := range q.held {
		if *h == nil {
			*h = &berthStatus{c: q.Client}
		}
	}
	return q.berth.reconcile(ctx, w)
}
