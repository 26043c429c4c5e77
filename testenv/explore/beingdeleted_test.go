package explore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// labelTarget is the object labelScenario's reconciler labels: its kind
// (core v1, unstructured: the scheme has the test kinds only), key, and
// what else a create of it needs (spec).
type labelTarget struct {
	kind string
	key  types.NamespacedName
	spec map[string]any
}

// object is the target labelled labels (none: nil), with its spec when
// withSpec (a create; an apply sets the label only).
func (tg labelTarget) object(labels map[string]string, withSpec bool) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	if withSpec && tg.spec != nil {
		u.Object["spec"] = tg.spec
	}
	u.SetAPIVersion("v1")
	u.SetKind(tg.kind)
	u.SetNamespace(tg.key.Namespace)
	u.SetName(tg.key.Name)
	u.SetLabels(labels)
	return u
}

// labelScenario: a reconciler of Widget ns/nl-w applies, by a forced
// server-side apply (field manager "nslabel"), the label app=<the
// Widget's annotation app> to the target, both read from the cache, and
// leaves a target being deleted alone, as accurate's Namespace controller
// propagates a SubNamespace's labels to its Namespace (cluster-scoped).
// The Widget has app=api. The user's actions: delete deletes the target,
// which the full API leaves being deleted until the reset (a Namespace
// Terminating: no namespace lifecycle controller runs to remove its
// spec.finalizers [kubernetes]; a Pod bound to a node in its graceful
// deletion: no kubelet runs to end it); label-ns labels it app=web.
func labelScenario(tg labelTarget) explore.Scenario {
	wKey := types.NamespacedName{Namespace: "ns", Name: "nl-w"}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			w := &testv1.Widget{}
			if err := c.Get(ctx, wKey, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			u := tg.object(nil, false)
			if err := c.Get(ctx, tg.key, u); err != nil || u.GetDeletionTimestamp() != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			labels := map[string]string{}
			if app := w.Annotations["app"]; app != "" {
				labels["app"] = app
			}
			data, err := json.Marshal(tg.object(labels, false).Object)
			if err != nil {
				return reconcile.Result{}, err
			}
			return reconcile.Result{}, c.Patch(ctx, tg.object(nil, false),
				client.RawPatch(types.ApplyPatchType, data), client.FieldOwner("nslabel"), client.ForceOwnership)
		})
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "nslabel", For: &testv1.Widget{}, New: newRec}},
		// Unstructured objects read from the cache, as typed ones are.
		Manager: &manager.Options{Client: client.Options{Cache: &client.CacheOptions{Unstructured: true}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: wKey.Namespace, Name: wKey.Name,
			Annotations: map[string]string{"app": "api"}}}, tg.object(nil, true)},
		Actions: []explore.Action{{Name: "label-ns", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, tg.object(nil, false), client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"app":"web"}}}`)))
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, tg.object(nil, false))
		}}},
	}
}

// replayBeingDeleted replays the user deleting tg and labelling it
// app=web, and the reconciler reading tg stale (v1, not being deleted)
// and applying app=api over the user's label, unseen (v4), on the full
// API; it wants that lost write (of lost) ranked 4, its object being
// deleted.
func replayBeingDeleted(t *testing.T, tg labelTarget, lost string) {
	t.Helper()
	srv := fullAPIServer(t)
	if tg.key.Namespace != "" {
		// A Pod needs its Namespace (the explorer creates none); it
		// stays, as the shared server's other namespaces do.
		ns := labelTarget{kind: "Namespace", key: types.NamespacedName{Name: tg.key.Namespace}}.object(nil, true)
		if err := srv.Client.Create(t.Context(), ns); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	res, err := explore.Run(t.Context(), labelScenario(tg), explore.Options{Backend: explore.Server(srv),
		Replay:  "!delete !label-ns nslabel:ns/nl-w@0,2",
		Disable: []string{explore.InvariantObservedGenerationStuck}}) // it keeps no status
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.Message, lost) {
		t.Fatalf("want a lost write of %q, got:\n%v", lost, v)
	}
	if v.Rank != 4 || !strings.Contains(v.RankReason, "being deleted") || strings.Contains(v.RankReason, "gone") {
		t.Fatalf("want it ranked 4, its object being deleted, got rank %d (%s):\n%v", v.Rank, v.RankReason, v)
	}
	t.Logf("rank %d (%s): %s", v.Rank, v.RankReason, v.Message)
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
	replayBeingDeleted(t, labelTarget{kind: "Namespace", key: types.NamespacedName{Name: "nl-ns"}},
		"Namespace nl-ns: metadata.labels.app written by step 2 (v3) overwritten by step 3 (v4)")
}

// TestLostWriteOnAPodBeingDeleted (the full API: Pods): the same loss on
// Pod nl-pods/nl-p, bound to a node (spec.nodeName): its delete is graceful
// (a deletionTimestamp and deletionGracePeriodSeconds 30, no
// metadata.finalizers), and no kubelet ends it, so the full API keeps
// it being deleted to the steady state, as a Terminating Namespace (a
// Pod with no node is deleted at once). No finalizer of any writer holds
// it, only its grace period: the loss ranks 4, being deleted, as the
// Namespace's (TestLostWriteOnANamespaceBeingDeleted); the rank rule's
// case for an object other than a Namespace, where metadata.finalizers
// alone decides.
func TestLostWriteOnAPodBeingDeleted(t *testing.T) {
	replayBeingDeleted(t, labelTarget{kind: "Pod", key: types.NamespacedName{Namespace: "nl-pods", Name: "nl-p"},
		spec: map[string]any{"nodeName": "node-a", "containers": []any{map[string]any{"name": "c", "image": "example.com/c"}}}},
		"Pod nl-pods/nl-p: metadata.labels.app written by step 2 (v3) overwritten by step 3 (v4)")
}
