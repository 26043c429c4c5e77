package explore_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
	testv1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

// parallelCreator reads its Widget, then creates two Gizmos from two
// goroutines at once (as JobSet creates its Jobs) and waits for both.
type parallelCreator struct{ c client.Client }

func (r parallelCreator) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{}) // both goroutines call at once
	errs := make([]error, 2)
	for i, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name + "-" + name}}
			if err := r.c.Get(ctx, client.ObjectKeyFromObject(g), &testv1.Gizmo{}); client.IgnoreNotFound(err) != nil || err == nil {
				errs[i] = err
				return
			}
			errs[i] = client.IgnoreAlreadyExists(r.c.Create(ctx, g))
		}()
	}
	close(start)
	wg.Wait()
	return reconcile.Result{}, errors.Join(errs...)
}

// A reconcile that calls the explorer's client from goroutines of its own
// does not crash the explorer (a concurrent map write in the book of
// versions): its calls are served one at a time. Run it with -race.
func TestConcurrentCallsFromOneReconcile(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "parallel", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return parallelCreator{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "cc", Name: "w"}}},
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(server(t)), Depth: 3, Crashes: 1, Budget: searchBound})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules < 2 {
		t.Fatalf("want at least 2 schedules and no violation, got %d:\n%v", res.Schedules, res.Violation)
	}
}
