package explore_test

import (
	"context"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// jobMaker gives its Widget a batch/v1 Job of its name; dirty is set when
// it finds one being deleted (left over by an earlier schedule).
type jobMaker struct {
	c     client.Client
	dirty *atomic.Bool
}

func (r *jobMaker) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	job := &unstructured.Unstructured{}
	job.SetAPIVersion("batch/v1")
	job.SetKind("Job")
	err := r.c.Get(ctx, req.NamespacedName, job)
	if err == nil {
		if job.GetDeletionTimestamp() != nil {
			r.dirty.Store(true)
		}
		return ctrl.Result{}, nil
	}
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	job.SetNamespace(req.Namespace)
	job.SetName(req.Name)
	job.Object["spec"] = map[string]any{"template": map[string]any{"spec": map[string]any{
		"restartPolicy": "Never",
		"containers":    []any{map[string]any{"name": "c", "image": "busybox"}},
	}}}
	return ctrl.Result{}, client.IgnoreAlreadyExists(r.c.Create(ctx, job))
}

// The reset between schedules removes a batch/v1 Job a schedule created:
// a Job's deletion defaults to orphaning its dependents, which puts the
// orphan finalizer on it, and no garbage collector runs to remove it; the
// reset deletes in the background, so every schedule starts without it.
func TestResetRemovesJobs(t *testing.T) {
	const nsName = "explore-reset-jobs"
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName(nsName)
	var dirty atomic.Bool
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "jobs", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &jobMaker{c: c, dirty: &dirty} }}},
		Objects: []client.Object{ns, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: nsName, Name: "w"}}},
	}
	o := explore.Options{Backend: explore.Server(fullAPIServer(t)), Depth: 2, Budget: searchBound, StopAtFirst: true}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Schedules < 2 {
		t.Fatalf("want at least 2 schedules, got %d", res.Schedules)
	}
	if dirty.Load() {
		t.Fatalf("a schedule began with an earlier schedule's Job being deleted (the reset left it)")
	}
}
