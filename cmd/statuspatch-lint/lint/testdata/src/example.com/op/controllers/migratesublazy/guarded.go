package migratesublazy

// A sub-reconciler that may be nil at the read: optional (a feature
// gate), its call guarded by a nil check between the read and the call
// (review R5 of s105: -fix made the patcher at the read, outside the
// guard, and with the gate off every reconcile panicked on a nil
// pointer). The write stays, naming the guard's line.

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Lighthouse struct {
	client.Client
	lamp *lampStatus
	horn *hornStatus
}

type lampStatus struct{ c client.Client }

func (s *lampStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 41
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 42 names its client l\.lamp\.c, and l\.lamp is checked against nil at line 41, between the read the patcher is made at and the call: made at the read, the patcher would read l\.lamp\.c where it may be nil\)$`
}

// SetupWithManager sets lamp only with the gate on.
func (l *Lighthouse) SetupWithManager(c client.Client, gate bool) {
	if gate {
		l.lamp = &lampStatus{c: c}
	}
}

func (l *Lighthouse) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	if l.lamp != nil {
		if err := l.lamp.reconcile(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

type hornStatus struct{ c client.Client }

func (s *hornStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 42
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 68 names its client l\.horn\.c, and l\.horn is checked against nil at line 65, between the read the patcher is made at and the call: made at the read, the patcher would read l\.horn\.c where it may be nil\)$`
}

// An early return guards it.
func (l *Lighthouse) sound(ctx context.Context, key client.ObjectKey, gate bool) error {
	if gate {
		l.horn = &hornStatus{c: l.Client}
	}
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	if l.horn == nil {
		return nil
	}
	return l.horn.reconcile(ctx, w)
}
