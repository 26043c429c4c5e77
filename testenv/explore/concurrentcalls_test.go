package explore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// deadlockGuard ends a barrier's wait that would never end (a lock held
// across the dispatch of a write's events): the test then fails, saying so,
// instead of hanging. It forces nothing: the barrier opens as soon as both
// goroutines are in, long before.
const deadlockGuard = time.Minute

// barrier opens when both of its names have arrived: a create's goroutine
// arrives from the map function of its Gizmo's event, or, when its create
// failed (no event), from the goroutine itself.
type barrier struct {
	mu      sync.Mutex
	arrived map[string]bool
	open    chan struct{}
}

func newBarrier(names ...string) *barrier {
	b := &barrier{arrived: map[string]bool{}, open: make(chan struct{})}
	for _, n := range names {
		b.arrived[n] = false
	}
	return b
}

// arrive marks name arrived; it reports false for a name not of b.
func (b *barrier) arrive(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	was, ok := b.arrived[name]
	if !ok || was {
		return ok
	}
	b.arrived[name] = true
	for _, in := range b.arrived {
		if !in {
			return true
		}
	}
	close(b.open)
	return true
}

// fanOut is an operator whose reconcile of a Widget w, when w's Gizmos
// w-a and w-b are both missing, creates them from two goroutines and, from
// a third, lists the Gizmos and reads w, all let go at once (as JobSet
// creates its Jobs). Its Setup watches Gizmos with a map function that
// holds each create's event until the other create's has come, then lists
// the Widgets through the client: the two creates' events are dispatched at
// once, and the map functions read while the other goroutines call. After
// its create, each goroutine reads its Gizmo and lists them all.
type fanOut struct {
	armed atomic.Pointer[barrier]
	// met counts the barriers that opened; mapped the map functions' Lists
	// served; failed what went wrong in a map function.
	met, mapped *atomic.Int32
	failed      func(error)
}

func (f *fanOut) setup(mgr ctrl.Manager) error {
	c := mgr.GetClient()
	api := mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).Named("fanout").For(&testv1.Widget{}).
		Watches(&testv1.Gizmo{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			if b := f.armed.Load(); b != nil && b.arrive(o.GetName()) {
				select {
				case <-b.open:
				case <-time.After(deadlockGuard):
					f.failed(fmt.Errorf("the map function of %s waited %s for the other create's event: it was lost, or the explorer held a lock across the dispatch", o.GetName(), deadlockGuard))
				}
			}
			var l testv1.WidgetList
			if err := c.List(ctx, &l, client.InNamespace(o.GetNamespace())); err != nil {
				if !strings.Contains(err.Error(), "crashed") {
					f.failed(fmt.Errorf("map function of %s: %w", o.GetName(), err))
				}
				return nil
			}
			f.mapped.Add(1)
			var out []reconcile.Request
			for _, w := range l.Items {
				if strings.HasPrefix(o.GetName(), w.Name+"-") {
					out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&w)})
				}
			}
			return out
		})).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			return f.reconcile(ctx, c, api, req)
		}))
}

func (f *fanOut) reconcile(ctx context.Context, c client.Client, api client.Reader, req reconcile.Request) (reconcile.Result, error) {
	if err := c.Get(ctx, req.NamespacedName, &testv1.Widget{}); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	names := []string{req.Name + "-a", req.Name + "-b"}
	var missing []string
	for _, n := range names {
		err := api.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: n}, &testv1.Gizmo{})
		if client.IgnoreNotFound(err) != nil {
			return reconcile.Result{}, err
		}
		if err != nil {
			missing = append(missing, n)
		}
	}
	if len(missing) < len(names) {
		for _, n := range missing { // after a crash between the two creates
			if err := c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: n}}); client.IgnoreAlreadyExists(err) != nil {
				return reconcile.Result{}, err
			}
		}
		return reconcile.Result{}, nil
	}
	b := newBarrier(names...)
	f.armed.Store(b)
	defer f.armed.Store(nil)
	var wg sync.WaitGroup
	start := make(chan struct{}) // all goroutines call at once
	errs := make([]error, len(names)+1)
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: n}}
			if err := c.Create(ctx, g); err != nil {
				b.arrive(n) // no event: do not hold the other create's
				errs[i] = client.IgnoreAlreadyExists(err)
				return
			}
			err := client.IgnoreNotFound(c.Get(ctx, client.ObjectKeyFromObject(g), &testv1.Gizmo{}))
			errs[i] = errors.Join(err, c.List(ctx, &testv1.GizmoList{}, client.InNamespace(req.Namespace)))
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		err := c.List(ctx, &testv1.GizmoList{}, client.InNamespace(req.Namespace))
		errs[len(names)] = errors.Join(err, c.Get(ctx, req.NamespacedName, &testv1.Widget{}))
	}()
	close(start)
	wg.Wait()
	select {
	case <-b.open:
		f.met.Add(1)
	default:
	}
	return reconcile.Result{}, errors.Join(errs...)
}

// A reconcile that calls the explorer's client from goroutines of its own
// neither crashes the explorer (a concurrent map write in the book of
// versions) nor deadlocks it: two creates' events are dispatched at once,
// and their map functions read through the client while the other
// goroutines' calls run. Run it with -race too.
func TestConcurrentCallsFromOneReconcile(t *testing.T) {
	var met, mapped atomic.Int32
	var mu sync.Mutex
	var failures []error
	s := explore.Scenario{
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "cc", Name: "w"}}},
		Setup: func(mgr ctrl.Manager) error {
			f := &fanOut{met: &met, mapped: &mapped, failed: func(err error) {
				mu.Lock()
				defer mu.Unlock()
				failures = append(failures, err)
			}}
			return f.setup(mgr)
		},
	}
	o := serverOptions(t)
	o.Depth, o.Crashes = 2, 1
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a correct operator broke an invariant:\n%s", res.Violation)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(failures) > 0 {
		t.Fatalf("map functions: %v", errors.Join(failures...))
	}
	if res.Schedules < 2 || met.Load() == 0 || mapped.Load() == 0 {
		t.Fatalf("want at least 2 schedules, the two creates' events dispatched at once and the map functions' Lists served; got %d schedules, %d barriers met, %d Lists", res.Schedules, met.Load(), mapped.Load())
	}
	t.Logf("%d schedules, %d barriers met, %d map function Lists, in %s", res.Schedules, met.Load(), mapped.Load(), res.Elapsed)
}
