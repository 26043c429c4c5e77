package explore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// fiveMaker keeps five Gizmos per Widget, as an operator keeps the
// children of its object (a StatefulSet, Services, ConfigMaps...), and
// records status.observedGeneration with an optimistic lock.
type fiveMaker struct{ c client.Client }

func (r *fiveMaker) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for i := range 5 {
		key := client.ObjectKey{Namespace: w.Namespace, Name: fmt.Sprintf("%s-%d", w.Name, i)}
		err := r.c.Get(ctx, key, &testv1.Gizmo{})
		if !apierrors.IsNotFound(err) {
			if err != nil {
				return ctrl.Result{}, err
			}
			continue
		}
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// BenchmarkChildrenSearch measures schedules per second, and the
// requests the explorer sends the server per schedule, of one exhaustive
// search (depth 3, the Widget resized anywhere) of fiveMaker on an
// embedded server: where a schedule's time goes when each schedule
// creates, and the reset deletes, several objects (docs/benchmarks.md):
//
//	cd testenv && go test ./explore/ -run '^$' -bench ChildrenSearch -benchtime 3x
func BenchmarkChildrenSearch(b *testing.B) {
	scheme := runtime.NewScheme()
	if err := testv1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	env, err := startServer("embedded", scheme)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(env.stop)
	srv := &countingServer{env: env}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "five", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &fiveMaker{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
	want := ""
	var schedules int
	var wall, cpu time.Duration
	requests0 := srv.total()
	for range b.N {
		cpu0, t0 := cpuTime(b), time.Now()
		res, err := explore.Run(context.Background(), s, explore.Options{Backend: explore.Server(srv), Depth: benchDepth(), Budget: searchBound})
		wall, cpu = wall+time.Since(t0), cpu+cpuTime(b)-cpu0
		if err != nil {
			b.Fatal(err)
		}
		if want == "" {
			want = verdict(res)
		}
		if got := verdict(res); got != want || !res.Exhausted || res.Violation != nil {
			b.Fatalf("want the search exhausted without violation, the same each run, got:\n%s\nfirst:\n%s", got, want)
		}
		schedules += res.Schedules
	}
	b.ReportMetric(float64(schedules)/wall.Seconds(), "schedules/s")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(schedules), "cpu-ms/schedule")
	b.ReportMetric(float64(schedules)/float64(b.N), "schedules/op")
	b.ReportMetric(float64(srv.total()-requests0)/float64(schedules), "requests/schedule")
	b.Logf("requests a schedule by verb and kind: %s", srv.perSchedule(schedules))
}
