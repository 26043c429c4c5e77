package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"

	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// A Namespace being deleted waits on its spec.finalizers, which only the
// namespace controller (not run on these servers) removes, and an object
// being deleted without a finalizer on the end of its graceful deletion
// (a Pod's: the kubelet's): while one does, a reconcile that leaves its
// finalizer may be waiting for that object to go, and "no stuck
// finalizer" is silent. A Namespace's spec.finalizers are never a
// reconciler's finalizer either.
func TestStuckFinalizerSilentWhileANamespaceTerminates(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	w := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	ns := book.Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, NN: types.NamespacedName{Name: "ns"}}
	meta := func(name string, deleting bool, finalizers ...any) map[string]any {
		m := map[string]any{"name": name, "uid": "uid-" + name}
		if deleting {
			m["deletionTimestamp"] = "2026-11-25T00:00:00Z"
		}
		if len(finalizers) > 0 {
			m["finalizers"] = finalizers
		}
		return map[string]any{"metadata": m}
	}
	for _, tc := range []struct {
		name string
		// namespace is the Namespace's last version, nil for none.
		namespace map[string]any
		want      bool
	}{
		{"no Namespace", nil, true},
		{"a live Namespace", meta("ns", false), true},
		{"being deleted gracefully, without a finalizer (as a Pod)", meta("ns", true), false},
		{"a Namespace being deleted, its spec.finalizers left", func() map[string]any {
			m := meta("ns", true)
			m["spec"] = map[string]any{"finalizers": []any{"kubernetes"}}
			return m
		}(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := schedrun.NewScripted(nil)
			r.Record(w, meta("w", false), "1") // the scenario's Widget
			if tc.namespace != nil {
				r.Record(ns, tc.namespace, "2")
			}
			rec := item{Rec: 0, Action: -1, Key: w}
			r.Step(rec, "done", nil, func() { r.Record(w, meta("w", false, "example.com/cleanup"), "3") })
			r.Step(item{Rec: -1, Action: 0}, "done", nil, func() { r.Record(w, meta("w", true, "example.com/cleanup"), "4") })
			first := r.Steps()
			r.Step(rec, "done", nil, nil)
			r.CheckFinalizers(first, []schema.GroupVersionKind{widget})
			if got := r.Failed() != nil && r.Failed().Invariant == InvariantStuckFinalizer; got != tc.want {
				t.Fatalf("reported %t, want %t: %+v", got, tc.want, r.Failed())
			}
		})
	}
}
