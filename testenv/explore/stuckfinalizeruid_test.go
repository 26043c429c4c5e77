package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"

	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// On the fake client objects carry no UID: an owner reference (its uid
// empty too) then names its owner by group, kind and name, in the
// dependent's namespace. A dependent of another object does not silence
// "no stuck finalizer" on the Widget being deleted; one that names the
// Widget does.
func TestStuckFinalizerDependentsWithoutUIDs(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gizmo := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}
	w := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	g := book.Key{GVK: gizmo, NN: types.NamespacedName{Namespace: "ns", Name: "g"}}
	widgetMeta := func(deleting bool, finalizers ...any) map[string]any {
		m := map[string]any{"namespace": "ns", "name": "w"} // no uid: the fake client's
		if deleting {
			m["deletionTimestamp"] = "2026-11-25T00:00:00Z"
		}
		if len(finalizers) > 0 {
			m["finalizers"] = finalizers
		}
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": m}
	}
	ref := func(apiVersion, kind, name string) map[string]any {
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": map[string]any{
			"namespace": "ns", "name": "g",
			"ownerReferences": []any{map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name, "uid": ""}},
		}}
	}
	for _, tc := range []struct {
		name  string
		gizmo map[string]any
		want  bool
	}{
		{"owned by another kind", ref("example.com/v1", "Gadget", "w"), true},
		{"owned by another Widget", ref("example.com/v1", "Widget", "other"), true},
		{"owned by a Widget of another group", ref("other.example.com/v1", "Widget", "w"), true},
		{"owned by the Widget", ref("example.com/v1", "Widget", "w"), false},
		{"owned by the Widget, another version", ref("example.com/v2", "Widget", "w"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := schedrun.NewScripted(nil)
			r.Record(w, widgetMeta(false), "1") // the scenario's Widget
			r.Record(g, tc.gizmo, "2")          // the scenario's Gizmo
			rec := item{Rec: 0, Action: -1, Key: w}
			r.Step(rec, "done", nil, func() { r.Record(w, widgetMeta(false, "example.com/cleanup"), "3") })
			r.Step(item{Rec: -1, Action: 0}, "done", nil, func() { r.Record(w, widgetMeta(true, "example.com/cleanup"), "4") })
			first := r.Steps()
			r.Step(rec, "done", nil, nil)
			r.CheckFinalizers(first, []schema.GroupVersionKind{widget})
			if got := r.Failed() != nil && r.Failed().Invariant == InvariantStuckFinalizer; got != tc.want {
				t.Fatalf("reported %t, want %t: %+v", got, tc.want, r.Failed())
			}
		})
	}
}
