package explore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
)

// barrier releases n goroutines together, round after round, so that every
// contender has read before any of them writes: the "both reconciles saw
// status.plan == nil" interleaving made certain instead of left to chance.
// A round that does not fill up within the timeout fails instead of hanging.
type barrier struct {
	mu      sync.Mutex
	n, seen int
	release chan struct{}
	timeout time.Duration
}

func newBarrier(n int) *barrier {
	return &barrier{n: n, release: make(chan struct{}), timeout: 20 * time.Second}
}

func (b *barrier) wait() error {
	b.mu.Lock()
	release := b.release
	b.seen++
	if b.seen == b.n {
		b.seen = 0
		b.release = make(chan struct{})
		close(release)
		b.mu.Unlock()
		return nil
	}
	b.mu.Unlock()
	select {
	case <-release:
		return nil
	case <-time.After(b.timeout):
		return fmt.Errorf("barrier: only %d of %d contenders arrived", b.seen, b.n)
	}
}

// gated wraps c so that each Get of an object that match selects waits at b
// after reading: every contender holds the same state when they are
// released to write. Other reads and all writes pass straight through.
func gated(c client.WithWatch, b *barrier, match func(client.Object) bool) client.Client {
	return interceptor.NewClient(c, interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			err := c.Get(ctx, key, obj, opts...)
			if match(obj) {
				if berr := b.wait(); berr != nil {
					return berr
				}
			}
			return err
		},
	})
}

func isRollout(o client.Object) bool { _, ok := o.(*demov1.Rollout); return ok }
func isFleet(o client.Object) bool   { _, ok := o.(*demov1.Fleet); return ok }

// uncached returns a client.WithWatch on the shared server, which
// interceptor needs.
func uncached(t *testing.T) client.WithWatch {
	t.Helper()
	c, err := client.NewWithWatch(shared.Config, client.Options{Scheme: shared.Scheme, Mapper: shared.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newRollout creates a Rollout; with finalizer it starts as a reconcile that
// already added the finalizer left it.
func newRollout(t *testing.T, ns, name, fleet string, finalizer bool) client.ObjectKey {
	t.Helper()
	ro := &demov1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       demov1.RolloutSpec{Version: "v1", Steps: 3, Fleet: fleet},
	}
	if finalizer {
		ro.Finalizers = []string{controller.RolloutFinalizer}
	}
	if err := shared.Client.Create(ctx, ro); err != nil {
		t.Fatal(err)
	}
	return client.ObjectKeyFromObject(ro)
}

func newFleet(t *testing.T, name string, minCompleted int32) {
	t.Helper()
	f := &demov1.Fleet{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: demov1.FleetSpec{MinCompleted: minCompleted}}
	if err := shared.Client.Create(ctx, f); err != nil {
		t.Fatal(err)
	}
}

func getRollout(t *testing.T, key client.ObjectKey) *demov1.Rollout {
	t.Helper()
	ro := &demov1.Rollout{}
	if err := shared.Client.Get(ctx, key, ro); err != nil {
		t.Fatal(err)
	}
	return ro
}

func getFleet(t *testing.T, name string) *demov1.Fleet {
	t.Helper()
	f := &demov1.Fleet{}
	if err := shared.Client.Get(ctx, client.ObjectKey{Name: name}, f); err != nil {
		t.Fatal(err)
	}
	return f
}

// planLog records OnPlan calls.
type planLog struct {
	mu      sync.Mutex
	built   []string
	skipped []string
}

func (l *planLog) record(_ client.ObjectKey, id string, built bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if built {
		l.built = append(l.built, id)
	} else {
		l.skipped = append(l.skipped, id)
	}
}

func metaFor(key client.ObjectKey) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}
}

var seq atomic.Int64

// uniq makes a name unique within the process: `go test -count=n` runs the
// tests n times against the one server.
func uniq(name string) string { return fmt.Sprintf("%s-%d", name, seq.Add(1)) }
