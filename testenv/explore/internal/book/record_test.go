package book

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// An object deleted and created again under its name between two records
// (out of the explorer's sight) is another object: the book records the
// deletion between them, so the new object's history starts anew, and no
// version of the old object stands for the new one's, whether the new one
// has the same content (only its UID differs) or the same resourceVersion
// (the fake client numbers each object's from 1) (issue 50).
func TestRecordNewUIDStartsAnew(t *testing.T) {
	w := Key{GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	obj := func(uid, label string) map[string]any {
		return map[string]any{"metadata": map[string]any{"namespace": "ns", "name": "w", "uid": uid, "labels": map[string]any{"a": label}}}
	}
	for _, tc := range []struct {
		name   string
		oldRV  string
		newRV  string
		newObj map[string]any
	}{
		{"same content, new resourceVersion", "1", "7", obj("b", "1")},
		{"other content, same resourceVersion", "1", "1", obj("b", "2")},
		{"other content, new resourceVersion", "1", "7", obj("b", "2")},
		{"old version recorded without a resourceVersion", "", "7", obj("b", "2")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(nil, nil)
			b.Record(w, obj("a", "1"), tc.oldRV)
			h := b.Record(w, tc.newObj, tc.newRV)
			if !b.LastChanged() {
				t.Fatalf("the new object made no new version: %v", h.Versions)
			}
			if len(h.Versions) != 3 || h.Versions[1] != nil {
				t.Fatalf("want the old object, its deletion, the new object; got %v", h.Versions)
			}
			for i, v := range h.Versions {
				if uid := UIDOfVersion(v); v != nil && i > 1 && uid != "b" || i == 0 && uid != "a" {
					t.Errorf("version %d has uid %q", i+1, uid)
				}
			}
			if h.RVs[2] != tc.newRV || h.Seqs[1] >= h.Seqs[2] {
				t.Errorf("rvs %v, seqs %v", h.RVs, h.Seqs)
			}
			// Recording the new object again is no new version.
			b.Record(w, tc.newObj, tc.newRV)
			if b.LastChanged() || len(h.Versions) != 3 {
				t.Errorf("the same version again made another: %v", h.Versions)
			}
		})
	}
	// Without UIDs (the fake client's objects carry none) the book cannot
	// tell two objects apart: the same content is the same version.
	b := New(nil, nil)
	b.Record(w, obj("", "1"), "1")
	if h := b.Record(w, obj("", "1"), "2"); b.LastChanged() || len(h.Versions) != 1 {
		t.Errorf("without UIDs, a new resourceVersion alone made a version: %v", h.Versions)
	}
}

// Seen reads a step's record of what it saw: version 0 (the first) is a
// version seen, an object absent from the record (or no record) none.
func TestSeenTellsVersionZeroFromNone(t *testing.T) {
	a := Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	b := Key{GVK: a.GVK, NN: types.NamespacedName{Namespace: "ns", Name: "b"}}
	for _, tc := range []struct {
		name string
		seen map[Key]int
		k    Key
		want int
	}{
		{"no record", nil, a, -1},
		{"another object seen", map[Key]int{b: 2}, a, -1},
		{"its first version", map[Key]int{a: 0}, a, 0},
		{"a later version", map[Key]int{a: 3, b: 1}, a, 3},
	} {
		if got := Seen(tc.seen, tc.k); got != tc.want {
			t.Errorf("%s: Seen = %d, want %d", tc.name, got, tc.want)
		}
	}
}
