package migratesublazy

// A client set by a function handed to code that may run it later or
// concurrently (a go statement, a WaitGroup's Go): the set is done only
// at a synchronization point the walk does not see (review R5 of s105:
// -fix made the patcher between wg.Go and wg.Wait, and the project's
// test panicked on a nil pointer). The write stays, naming the call.

import (
	"context"
	"sync"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Ferry struct {
	client.Client
	sub  *ferryStatus
	ramp *rampStatus
}

type ferryStatus struct{ c client.Client }

func (s *ferryStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 31
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 45 names its client f\.sub\.c, which may be set after the read the patcher is made at: the call at line 43 may set it: it hands f\.ensure to sync\.WaitGroup\.Go, which may run it later or concurrently\)$`
}

func (f *Ferry) ensure() {
	if f.sub == nil {
		f.sub = &ferryStatus{c: f.Client}
	}
}

// A WaitGroup's Go runs the method value in a goroutine.
func (f *Ferry) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := f.Get(ctx, key, w); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Go(f.ensure)
	wg.Wait()
	return f.sub.reconcile(ctx, w)
}

type rampStatus struct{ c client.Client }

func (s *rampStatus) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 32
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 70 names its client f\.ramp\.c, which may be set after the read the patcher is made at: the call at line 63 may set it: a go statement runs it concurrently\)$`
}

// A go statement runs the function literal concurrently; the channel
// receive is where it is known done.
func (f *Ferry) lower(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := f.Get(ctx, key, w); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		if f.ramp == nil {
			f.ramp = &rampStatus{c: f.Client}
		}
		close(done)
	}()
	<-done
	return f.ramp.reconcile(ctx, w)
}
