package patcher_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// sharedClient is one client value for several patchers, as a manager's
// client is (a pointer: an interceptor client is a struct value, which
// cannot key the version book).
type sharedClient struct{ client.WithWatch }

// A write in flight holds its object's write slot: another writer through
// the same client waits for it, its own context ends the wait with nothing
// sent, and once the first write is answered the waiter learns from the
// book, not from the server, that its base is outdated.
func TestWriteSlotWaitEndsWithTheWaitersContext(t *testing.T) {
	base, _, log := newClient(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var held atomic.Bool
	blocking := interceptor.NewClient(base, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			if held.CompareAndSwap(false, true) { // the first status write waits in flight
				close(entered)
				<-release
			}
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
	c := &sharedClient{blocking}

	first := patcher.New(c, fetch(t, c))
	first.Object().Status.ReadyReplicas = 1
	firstDone := make(chan error, 1)
	go func() { firstDone <- first.Flush(context.Background()) }()
	<-entered // the first write is in flight, holding the slot

	waiter := patcher.New(c, fetch(t, c))
	waiter.Object().Status.AvailableReplicas = 2
	ctx, cancel := context.WithCancelCause(context.Background())
	gaveUp := errors.New("reconcile deadline")
	cancel(gaveUp)
	sent := log.count("patch", "status")
	err := waiter.Flush(ctx)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, gaveUp) {
		t.Fatalf("Flush waiting for the slot with a done context = %v, want the context's error and its cause", err)
	}
	if n := log.count("patch", "status") - sent; n != 0 {
		t.Fatalf("the waiter sent %d requests", n)
	}

	second := make(chan error, 1)
	go func() { second <- waiter.Flush(context.Background()) }() // waits for the slot
	close(release)
	if err := <-firstDone; err != nil {
		t.Fatalf("the first write: %v", err)
	}
	if err := <-second; !apierrors.IsConflict(err) {
		t.Fatalf("the waiter's Flush after the first write = %v, want a Conflict from the book", err)
	}
	if n := log.count("patch", "status") - sent; n != 1 {
		t.Fatalf("%d status writes sent, want only the first write's", n)
	}
	if got := fetch(t, c); got.Status.ReadyReplicas != 1 || got.Status.AvailableReplicas != 0 {
		t.Fatalf("status on the server = %+v, want only the first write", got.Status)
	}
}
