package patcherit_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

const (
	writers = 8
	appends = 25
)

// appendAll has `writers` goroutines each append `appends` entries to one
// Widget's status.items, every round read by all before any writes, and
// returns the entries that survived.
func appendAll(t *testing.T, write func(c client.Client, key client.ObjectKey, entry string) error) (sets.Set[string], int) {
	return appendAllN(t, writers, appends, write)
}

// Each writer has a client of its own, as separate managers do: the
// patcher's version book is per client, so the writers meet only at the
// server's lock.
func appendAllN(t *testing.T, writers, appends int, write func(c client.Client, key client.ObjectKey, entry string) error) (sets.Set[string], int) {
	e := env(t)
	key := newWidget(t, e.Client)
	b := newBarrier(writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers*appends)
	for w := range writers {
		c, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range appends {
				b.wait()
				if err := write(c, key, fmt.Sprintf("w%d-%d", w, i)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("write failed: %v", err)
	}
	items := get(t, e.Client, key).Status.Items
	return sets.New(items...), len(items)
}

func TestRetryAppendsLoseNothing(t *testing.T) {
	got, n := appendAll(t, func(c client.Client, key client.ObjectKey, entry string) error {
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
		if err != nil {
			return err
		}
		return p.Retry(ctx, func(w *v1.Widget) error {
			w.Status.Items = append(w.Status.Items, entry)
			return nil
		})
	})
	if n != writers*appends || got.Len() != writers*appends {
		t.Fatalf("status.items holds %d entries (%d distinct), want all %d", n, got.Len(), writers*appends)
	}
}

// The same scenario with the blind write users have today: client.MergeFrom
// without the optimistic lock. It must lose entries, or this scenario could
// not catch what it claims to.
func TestBlindMergeFromAppendsLoseEntries(t *testing.T) {
	got, n := appendAll(t, func(c client.Client, key client.ObjectKey, entry string) error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		base := w.DeepCopy()
		w.Status.Items = append(w.Status.Items, entry)
		return c.Status().Patch(ctx, w, client.MergeFrom(base))
	})
	if got.Len() >= writers*appends {
		t.Fatalf("blind MergeFrom kept all %d entries: the scenario does not create contention", n)
	}
	t.Logf("blind MergeFrom kept %d of %d entries", got.Len(), writers*appends)
}

// Two reconciles see status.plan == nil at the same time and both build a
// plan. With Retry the loser re-runs on fresh state, sees the winner's plan
// and skips: one plan, and the one the server has is the one its builder
// believes in.
func TestDoubleReconcileBuildsOnePlan(t *testing.T) {
	e := env(t)
	for round := range 20 {
		key := client.ObjectKey{Namespace: "default", Name: objectName(t)}
		created := buildPlansConcurrently(t, e.Client, key, func(c client.Client, key client.ObjectKey, id string, b *barrier) (bool, error) {
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
			if err != nil {
				return false, err
			}
			b.wait()
			built := false
			err = p.Retry(ctx, func(w *v1.Widget) error {
				built = false
				if w.Status.Plan != nil {
					return nil // another reconcile planned already: skip
				}
				w.Status.Plan = &v1.WidgetPlan{ID: id, Steps: []string{"a", "b"}}
				built = true
				return nil
			})
			return built, err
		})
		if len(created) != 1 {
			t.Fatalf("round %d: %d reconciles built a plan (%v), want exactly 1", round, len(created), created)
		}
		if got := get(t, e.Client, key).Status.Plan; got == nil || got.ID != created[0] {
			t.Fatalf("round %d: server plan %+v, want %s", round, got, created[0])
		}
	}
}

func TestDoubleReconcileBlindLosesAPlan(t *testing.T) {
	e := env(t)
	lost := 0
	for range 20 {
		key := client.ObjectKey{Namespace: "default", Name: objectName(t)}
		created := buildPlansConcurrently(t, e.Client, key, func(c client.Client, key client.ObjectKey, id string, b *barrier) (bool, error) {
			w := &v1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return false, err
			}
			b.wait()
			if w.Status.Plan != nil {
				return false, nil
			}
			base := w.DeepCopy()
			w.Status.Plan = &v1.WidgetPlan{ID: id, Steps: []string{"a", "b"}}
			return true, c.Status().Patch(ctx, w, client.MergeFrom(base))
		})
		if len(created) > 1 {
			lost++ // both believe they planned; the server keeps one plan
		}
	}
	if lost == 0 {
		t.Fatal("the blind variant never built two plans: the scenario does not race")
	}
	t.Logf("blind MergeFrom: a plan was silently overwritten in %d of 20 rounds", lost)
}

// buildPlansConcurrently creates the Widget at key and runs two reconciles
// released together; it returns the plan IDs each reported building.
func buildPlansConcurrently(t *testing.T, c client.Client, key client.ObjectKey,
	reconcile func(c client.Client, key client.ObjectKey, id string, b *barrier) (bool, error)) []string {
	t.Helper()
	w := &v1.Widget{}
	w.Name, w.Namespace = key.Name, key.Namespace
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	b := newBarrier(2)
	var mu sync.Mutex
	var created []string
	var wg sync.WaitGroup
	for i := range 2 {
		// A client per reconcile, as two managers have: they meet only at
		// the server's lock.
		own, err := client.New(env(t).Config, client.Options{Scheme: c.Scheme(), Mapper: c.RESTMapper()})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("plan-%d", i)
			built, err := reconcile(own, key, id, b)
			if err != nil {
				t.Errorf("reconcile %d: %v", i, err)
			}
			if built {
				mu.Lock()
				created = append(created, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return created
}

// conflictCounter counts the 409 responses a client receives.
type conflictCounter struct{ n atomic.Int64 }

func (cc *conflictCounter) client(t *testing.T) client.Client {
	t.Helper()
	cfg := rest.CopyConfig(env(t).Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(r)
			if err == nil && resp.StatusCode == http.StatusConflict {
				cc.n.Add(1)
			}
			return resp, err
		})
	})
	c, err := client.New(cfg, client.Options{Scheme: env(t).Scheme, Mapper: env(t).Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Writers sharing one client (the workers of one manager) queue in the
// patcher's version book: each learns from the book, not from a 409, that
// another worker wrote first, re-reads and writes. Nothing is lost and the
// server refuses nothing. With a client each (separate managers) the same
// load meets at the server's lock: 409s, and still nothing lost.
func TestOneClientsWritersQueueInsteadOfConflicting(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			e := env(t)
			key := newWidget(t, e.Client)
			cc := &conflictCounter{}
			one := cc.client(t)
			b := newBarrier(writers)
			var wg sync.WaitGroup
			for w := range writers {
				c := one
				if !shared {
					c = cc.client(t)
				}
				wg.Add(1)
				go func() { // not wg.Go: testenv's tests build with Go 1.24
					defer wg.Done()
					for i := range appends {
						b.wait() // every round: all read before any writes
						p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
						if err == nil {
							err = p.Retry(ctx, func(o *v1.Widget) error {
								o.Status.Items = append(o.Status.Items, fmt.Sprintf("w%d-%d", w, i))
								return nil
							})
						}
						if err != nil {
							t.Errorf("writer %d: %v", w, err)
						}
					}
				}()
			}
			wg.Wait()
			items := get(t, e.Client, key).Status.Items
			if got := sets.New(items...); got.Len() != writers*appends {
				t.Fatalf("%d distinct entries, want %d", got.Len(), writers*appends)
			}
			switch n := cc.n.Load(); {
			case shared && n != 0:
				t.Fatalf("%d conflicts among one client's writers, want 0", n)
			case !shared && n == 0:
				t.Fatal("no conflict among separate clients: the scenario does not contend")
			default:
				t.Logf("shared=%v: %d conflicts from the server", shared, n)
			}
		})
	}
}
