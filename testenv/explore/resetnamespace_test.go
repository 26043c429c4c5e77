package explore_test

import (
	"context"
	"maps"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// namespaceDeleter deletes Namespace team-a, made before Run, once Widget
// w is labelled, marking w first; a reconcile of w that reads, fresh, w
// unmarked and the Namespace absent, being deleted or relabelled counts
// in moved, and one that reads it as made after a schedule deleted it in
// seen.
type namespaceDeleter struct {
	c                  client.Client
	api                client.Reader
	labels             map[string]string
	wrote, moved, seen *atomic.Int64
}

func teamNamespace() *unstructured.Unstructured {
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName("team-a")
	return ns
}

func (r *namespaceDeleter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil || w.Annotations["wrote"] != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ns := teamNamespace()
	err := r.api.Get(ctx, client.ObjectKeyFromObject(ns), ns)
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if err != nil || ns.GetDeletionTimestamp() != nil || !maps.Equal(ns.GetLabels(), r.labels) {
		r.moved.Add(1)
		return ctrl.Result{}, nil
	}
	if r.wrote.Load() > 0 {
		r.seen.Add(1)
	}
	if w.Labels["team"] != "a" {
		return ctrl.Result{}, nil
	}
	mark := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"wrote":"yes"}}}`))
	if err := r.c.Patch(ctx, w, mark); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Delete(ctx, ns); err != nil {
		return ctrl.Result{}, err
	}
	r.wrote.Add(1)
	return ctrl.Result{}, nil
}

// A Namespace there before Run that a step deletes stays Terminating (no
// namespace controller finalizes it): the reset finalizes it, waits until
// it is gone and makes it again, before the other objects, so every
// schedule starts with it as the test made it, and the search leaves it
// so.
func TestResetRestoresANamespaceAStepDeleted(t *testing.T) {
	env := fullAPIServer(t)
	ns := teamNamespace()
	ns.SetLabels(map[string]string{"team": "a"})
	if err := env.Client.Create(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	labels := maps.Clone(ns.GetLabels()) // the server's, kubernetes.io/metadata.name too
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), teamNamespace()) })
	var wrote, moved, seen atomic.Int64
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "deleter", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &namespaceDeleter{c: c, api: api, labels: labels, wrote: &wrote, moved: &moved, seen: &seen}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "label", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"a"}}}`)))
		}}},
	}
	o := explore.Options{Backend: explore.Server(env), Depth: 3, Budget: searchBound, StopAtFirst: true}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || moved.Load() != 0 || wrote.Load() == 0 || seen.Load() == 0 {
		t.Fatalf("want every schedule to start with Namespace team-a as made, no violation; got %d schedules (exhausted %v), %d reconciles read it moved, %d deleted it, %d read it after a delete:\n%v",
			res.Schedules, res.Exhausted, moved.Load(), wrote.Load(), seen.Load(), res.Violation)
	}
	after := teamNamespace()
	if err := env.Client.Get(t.Context(), client.ObjectKeyFromObject(after), after); err != nil ||
		after.GetDeletionTimestamp() != nil || !maps.Equal(after.GetLabels(), labels) || after.GetUID() == ns.GetUID() {
		t.Fatalf("Namespace team-a after the search: %v, %v; want it made again (another UID than %s) as made, labels %v", err, after, ns.GetUID(), labels)
	}
}
