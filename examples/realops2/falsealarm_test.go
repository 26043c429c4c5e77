package realops2

import (
	"context"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestLostWriteOfADerivedFieldRecomputed is the minimal trigger of the
// false alarm the ElasticQuota search showed
// (examples/realops/README.md, scheduler-plugins): a reconciler that
// counts the ConfigMaps labelled x=1 into an annotation of ConfigMap sum,
// by a blind MergeFrom patch, writes count 0 (step 1); the user labels a;
// the next reconcile, in the same process, reads sum stale (its own write
// not yet in the cache) and the list fresh, and writes count 1. Nothing is
// lost: the value it overwrites is its own, derived from an older list, and
// the same step with fresh reads sends the same patch. The explorer
// reported it as a lost write of count; it reports nothing since a lost
// write over the writer's own is judged against the fresh schedule
// (testenv/explore/internal/judge/lostsuspect.go).
func TestLostWriteOfADerivedFieldRecomputed(t *testing.T) {
	env := startSched(t) // any full API: ConfigMaps only
	const ns = "fa"
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "count", For: &corev1.ConfigMap{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
					sum := &corev1.ConfigMap{}
					if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "sum"}, sum); err != nil {
						return reconcile.Result{}, err
					}
					list := &corev1.ConfigMapList{}
					if err := c.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"x": "1"}); err != nil {
						return reconcile.Result{}, err
					}
					n := strconv.Itoa(len(list.Items))
					if sum.Annotations["count"] == n {
						return reconcile.Result{}, nil
					}
					old := sum.DeepCopy()
					sum.Annotations = map[string]string{"count": n}
					return reconcile.Result{}, c.Patch(ctx, sum, client.MergeFrom(old))
				})
			}}},
		Objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "sum"}},
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "a"}}},
		Actions: []explore.Action{{Name: "label-a", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "a"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"x":"1"}}}`)))
		}}},
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env),
		Replay: "count:fa/sum@0,0 !label-a count:fa/a@1,0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	if v := res.Violation; v != nil {
		t.Fatalf("a derived field recomputed from newer reads by its own writer reported as a lost write:\n%v", v)
	}
}
