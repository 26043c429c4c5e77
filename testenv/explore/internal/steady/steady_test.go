package steady

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// A lost write on an object whose deletion was asked for ends with it
// where the steady state still holds it being deleted held by no
// writer's finalizer: a Pod in its graceful deletion (a
// deletionTimestamp, no metadata.finalizers; its kubelet's to end), a
// Namespace whose spec.finalizers are only the namespace lifecycle
// controller's. Not where a finalizer holds it (a writer's, in
// metadata.finalizers; a Namespace's other spec.finalizers), nor where
// a Pod's spec.finalizers, which are no finalizers of a Pod, would
// count, nor where the newest version is another object (a new UID),
// nor where the version the write replaced was not being deleted.
func TestEndedWithObjectBeingDeleted(t *testing.T) {
	pod := book.Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, NN: types.NamespacedName{Namespace: "ns", Name: "p"}}
	ns := book.Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, NN: types.NamespacedName{Name: "n"}}
	// version is a version of uid, labelled app, being deleted when
	// deleting, with metadata.finalizers fs and spec.finalizers specFs.
	version := func(uid, app string, deleting bool, fs, specFs []any) map[string]any {
		m := map[string]any{"uid": uid, "labels": map[string]any{"app": app}}
		if deleting {
			m["deletionTimestamp"] = "2026-11-30T08:00:00Z"
		}
		if fs != nil {
			m["finalizers"] = fs
		}
		v := map[string]any{"metadata": m}
		if specFs != nil {
			v["spec"] = map[string]any{"finalizers": specFs}
		}
		return v
	}
	app := [][]string{{"metadata", "labels", "app"}}
	for _, tc := range []struct {
		name string
		key  book.Key
		// newest is the steady state's version after the lost write's
		// (v2, app=api over the user's app=web, replacing v1 being
		// deleted); nil: none after it.
		newest map[string]any
		fields [][]string
		want   bool
	}{
		{"a Pod in its graceful deletion", pod, nil, app, true},
		{"a Pod held by a writer's finalizer", pod, version("u1", "api", true, []any{"example.com/hold"}, nil), app, false},
		{"a Pod whose spec names finalizers, none in its metadata", pod, version("u1", "api", true, nil, []any{"example.com/x"}), app, true},
		{"a Pod created again under the name", pod, version("u2", "api", false, nil, nil), app, false},
		{"a loss of a Pod's finalizers", pod, nil, [][]string{{"metadata", "finalizers"}}, false},
		{"a Namespace left to its lifecycle controller", ns, version("u1", "api", true, nil, []any{"kubernetes"}), app, true},
		{"a Namespace held by another spec finalizer", ns, version("u1", "api", true, nil, []any{"example.com/hold"}), app, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specFs := []any(nil)
			if tc.key == ns {
				specFs = []any{"kubernetes"}
			}
			h := &book.History{Key: tc.key, Versions: []map[string]any{
				version("u1", "web", true, nil, specFs), // the user's label, the object being deleted
				version("u1", "api", true, nil, specFs), // the lost write's
			}, By: []int{1, 2}}
			if tc.newest != nil {
				h.Versions, h.By = append(h.Versions, tc.newest), append(h.By, 3)
			}
			r, ok := EndedWithObject(h, 1, h.Versions[0], tc.fields)
			if ok != tc.want {
				t.Fatalf("ended %t (%+v), want %t", ok, r, tc.want)
			}
			if ok && (!r.Ended || !r.Deleting || r.Version != 1 || r.Step != 1) {
				t.Errorf("restoration %+v, want ended, being deleted since v1 (step 1)", r)
			}
		})
	}
	// The version replaced not being deleted: the loss is not one that
	// ended with the object, whatever the steady state holds.
	h := &book.History{Key: pod, Versions: []map[string]any{version("u1", "web", false, nil, nil), version("u1", "api", true, nil, nil)}, By: []int{1, 2}}
	if r, ok := EndedWithObject(h, 1, h.Versions[0], app); ok {
		t.Errorf("a loss before the deletion was asked for ended with the object: %+v", r)
	}
}

// Restored finds where the values a lost write overwrote hold again, to
// the steady state: written again by a later step (the earliest version
// from which every version to the newest holds them), but for time-like
// values (ButTimes) when only a time differs; not when the newest
// version differs, when the object was made again (a new UID) or is
// gone, when nothing after the write held them, nor when the write lost
// only times (they held at its own version). A map list's lost item is
// found again by its keys, in any order.
func TestRestored(t *testing.T) {
	key := book.Key{GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	const t1, t2 = "2026-11-30T08:00:00Z", "2026-11-30T08:00:01Z"
	// version is a version of uid with status phase and since.
	version := func(uid, phase, since string) map[string]any {
		return map[string]any{"metadata": map[string]any{"uid": uid}, "status": map[string]any{"phase": phase, "since": since}}
	}
	fields := [][]string{{"status", "phase"}, {"status", "since"}}
	for _, tc := range []struct {
		name string
		// after are the versions after the lost write's (v2, phase Failed
		// over v1's Ready at t1), each made by the step of its index + 3.
		after    []map[string]any
		want     bool
		version  int
		step     int
		butTimes bool
	}{
		{"written again", []map[string]any{version("u1", "Ready", t1)}, true, 3, 3, false},
		{"written again, then kept", []map[string]any{version("u1", "Failed", t2), version("u1", "Ready", t1), version("u1", "Ready", t1)}, true, 4, 4, false},
		{"written again but for a time", []map[string]any{version("u1", "Ready", t2)}, true, 3, 3, true},
		{"lost again after", []map[string]any{version("u1", "Ready", t1), version("u1", "Failed", t1)}, false, 0, 0, false},
		{"never written again", nil, false, 0, 0, false},
		{"a new object under the name", []map[string]any{version("u2", "Ready", t1)}, false, 0, 0, false},
		{"gone", []map[string]any{version("u1", "Ready", t1), nil}, false, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &book.History{Key: key, Versions: []map[string]any{version("u1", "Ready", t1), version("u1", "Failed", t2)}, By: []int{1, 2}}
			for i, v := range tc.after {
				h.Versions, h.By = append(h.Versions, v), append(h.By, i+3)
			}
			r, ok := Restored(h, 1, h.Versions[0], h.Versions[1], fields, nil)
			if ok != tc.want {
				t.Fatalf("restored %t (%+v), want %t", ok, r, tc.want)
			}
			if ok && (r.Version != tc.version || r.Step != tc.step || r.ButTimes != tc.butTimes || r.Ended) {
				t.Errorf("restoration %+v, want version %d, step %d, but times %t", r, tc.version, tc.step, tc.butTimes)
			}
		})
	}

	t.Run("a loss of times only", func(t *testing.T) {
		h := &book.History{Key: key, Versions: []map[string]any{version("u1", "Ready", t1), version("u1", "Ready", t2), version("u1", "Ready", t2)}, By: []int{1, 2, 3}}
		if r, ok := Restored(h, 1, h.Versions[0], h.Versions[1], fields, nil); ok {
			t.Errorf("restored (%+v): the write lost only a time, nothing was written again", r)
		}
	})

	t.Run("a map list's item found again by its keys", func(t *testing.T) {
		cond := func(typ, status string) any { return map[string]any{"type": typ, "status": status} }
		withConds := func(cs ...any) map[string]any {
			return map[string]any{"metadata": map[string]any{"uid": "u1"}, "status": map[string]any{"conditions": cs}}
		}
		conds := [][]string{{"status", "conditions"}}
		keys := func(path []string) ([]string, bool) { return []string{"type"}, true }
		h := &book.History{Key: key, Versions: []map[string]any{
			withConds(cond("Ready", "True"), cond("Synced", "True")),
			withConds(cond("Synced", "True")),                         // Ready lost
			withConds(cond("Synced", "False"), cond("Ready", "True")), // Ready again, another order
		}, By: []int{1, 2, 3}}
		r, ok := Restored(h, 1, h.Versions[0], h.Versions[1], conds, keys)
		if !ok || r.Version != 3 || r.Step != 3 {
			t.Errorf("restored %t (%+v), want version 3 by step 3: Synced's change is not what was lost", ok, r)
		}
	})
}
