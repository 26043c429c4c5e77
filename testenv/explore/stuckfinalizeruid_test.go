package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

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
			r := newRun(nil, nil)
			step := func(it item, result string, write func()) {
				r.Trace.Cur = &stepState{Step: Step{Index: len(r.Trace.Steps) + 1, Result: result}, Seen: map[book.Key]int{}}
				if write != nil {
					write()
				}
				r.Trace.Steps = append(r.Trace.Steps, r.Trace.Cur.Step)
				r.Trace.Chosen = append(r.Trace.Chosen, scriptStep{It: it})
				r.Trace.Cur = nil
			}
			mark := func(k book.Key) { r.Book.History(k).By[r.Book.History(k).Newest()] = r.Trace.Cur.Step.Index }
			r.Book.Record(w, widgetMeta(false), "1") // the scenario's Widget
			r.Book.Record(g, tc.gizmo, "2")          // the scenario's Gizmo
			rec := item{Rec: 0, Action: -1, Key: w}
			step(rec, "done", func() { r.Book.Record(w, widgetMeta(false, "example.com/cleanup"), "3"); mark(w) })
			step(item{Rec: -1, Action: 0}, "done", func() { r.Book.Record(w, widgetMeta(true, "example.com/cleanup"), "4"); mark(w) })
			first := len(r.Trace.Steps)
			step(rec, "done", nil)
			r.Checks.CheckFinalizers(r.Trace.Judged(), first, []schema.GroupVersionKind{widget})
			if got := r.Trace.Failed != nil && r.Trace.Failed.Invariant == InvariantStuckFinalizer; got != tc.want {
				t.Fatalf("reported %t, want %t: %+v", got, tc.want, r.Trace.Failed)
			}
		})
	}
}
