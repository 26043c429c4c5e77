package explore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// nsLabelScenario: a reconciler of Widget ns/nl-w applies, by a forced
// server-side apply (field manager "nslabel"), the label app=<the
// Widget's annotation app> to Namespace nl-ns, both read from the
// cache, and leaves a Namespace being deleted alone, as accurate's
// Namespace controller propagates a SubNamespace's labels to its
// Namespace (cluster-scoped). The Widget has app=api. The user's
// actions: delete deletes the Namespace, which the full API, running no
// namespace lifecycle controller, leaves Terminating (its
// spec.finalizers [kubernetes]) until the reset; label-ns labels it
// app=web.
func nsLabelScenario() explore.Scenario {
	wKey := types.NamespacedName{Namespace: "ns", Name: "nl-w"}
	const nsName = "nl-ns"
	// namespace is Namespace nl-ns (unstructured: the scheme has the
	// test kinds only), labelled labels.
	namespace := func(labels map[string]string) *unstructured.Unstructured {
		ns := &unstructured.Unstructured{}
		ns.SetAPIVersion("v1")
		ns.SetKind("Namespace")
		ns.SetName(nsName)
		ns.SetLabels(labels)
		return ns
	}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			w := &testv1.Widget{}
			if err := c.Get(ctx, wKey, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			ns := namespace(nil)
			if err := c.Get(ctx, types.NamespacedName{Name: nsName}, ns); err != nil || ns.GetDeletionTimestamp() != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			labels := map[string]string{}
			if app := w.Annotations["app"]; app != "" {
				labels["app"] = app
			}
			data, err := json.Marshal(namespace(labels).Object)
			if err != nil {
				return reconcile.Result{}, err
			}
			return reconcile.Result{}, c.Patch(ctx, namespace(nil),
				client.RawPatch(types.ApplyPatchType, data), client.FieldOwner("nslabel"), client.ForceOwnership)
		})
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "nslabel", For: &testv1.Widget{}, New: newRec}},
		// Unstructured Namespaces read from the cache, as typed ones are.
		Manager: &manager.Options{Client: client.Options{Cache: &client.CacheOptions{Unstructured: true}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: wKey.Namespace, Name: wKey.Name,
			Annotations: map[string]string{"app": "api"}}}, namespace(nil)},
		Actions: []explore.Action{{Name: "label-ns", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, namespace(nil), client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"app":"web"}}}`)))
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, namespace(nil))
		}}},
	}
}

// TestLostWriteOnANamespaceBeingDeleted (the full API: Namespaces): the
// user deletes the Namespace (v2, Terminating) and labels it app=web
// (v3); the reconciler reads it stale (v1, not being deleted) and
// applies app=api over the user's label, unseen (v4), where a fresh
// read leaves the Namespace alone: a decision lost. The steady state
// holds the Namespace still Terminating, held by no writer's finalizer
// (no metadata.finalizers; spec.finalizers only the namespace lifecycle
// controller's): the lost value goes with it, and the loss ranks as one
// whose values ended with their object (4), saying "being deleted"
// (before, only an absent newest version counted: a decision lost, rank
// 2, as accurate v1.8.0's report).
func TestLostWriteOnANamespaceBeingDeleted(t *testing.T) {
	res, err := explore.Run(t.Context(), nsLabelScenario(), explore.Options{Backend: explore.Server(fullAPIServer(t)),
		Replay:  "!delete !label-ns nslabel:ns/nl-w@0,2",
		Disable: []string{explore.InvariantObservedGenerationStuck}}) // it keeps no status
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	v := res.Violation
	const lost = "Namespace nl-ns: metadata.labels.app written by step 2 (v3) overwritten by step 3 (v4)"
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.Message, lost) {
		t.Fatalf("want a lost write of %q, got:\n%v", lost, v)
	}
	if v.Rank != 4 || !strings.Contains(v.RankReason, "being deleted") || strings.Contains(v.RankReason, "gone") {
		t.Fatalf("want it ranked 4, its object being deleted, got rank %d (%s):\n%v", v.Rank, v.RankReason, v)
	}
	t.Logf("rank %d (%s): %s", v.Rank, v.RankReason, v.Message)
}
