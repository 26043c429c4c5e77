package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"

	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// An apply that changes a field only its own field manager's applies
// managed (by the managedFields of the version it replaced), decided by
// the same reconcile in the same process from reads no older, restates
// that reconcile's newest decision and loses nothing; any other evidence
// is a lost write.
func TestLostWriteByManagedFields(t *testing.T) {
	k := book.Key{GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, NN: types.NamespacedName{Namespace: "ns", Name: "db"}}
	const label = "leaderworkerset.sigs.k8s.io/template-revision-hash" // a key with dots
	entry := func(manager, op string) map[string]any {
		return map[string]any{"manager": manager, "operation": op, "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:" + label: map[string]any{}}}}}
	}
	obj := func(hash string, managers ...map[string]any) map[string]any {
		mf := []any{}
		for _, m := range managers {
			mf = append(mf, m)
		}
		labels := map[string]any{"app": "db"}
		if hash != "" {
			labels[label] = hash
		}
		return map[string]any{"metadata": map[string]any{"name": "db", "labels": labels, "managedFields": mf}}
	}
	lws, user, other := entry("lws", "Apply"), entry("kubectl", "Update"), entry("other", "Apply")
	// step is how a write was decided: by which reconciler, in which
	// process, having read the parent at which version.
	type step struct {
		rec            string
		process, learn int
	}
	same := step{"lws", 0, 2}
	for _, tc := range []struct {
		name      string
		set, last map[string]any // step 2's write; step 3's, based on v1
		by        step           // step 3's decision (step 2's: same)
		apply     bool           // step 3's is an apply
		lost      bool
	}{
		{"own apply restated", obj("a", lws), obj("b", lws), same, true, false},
		{"own apply dropped", obj("a", lws), obj("", lws), same, true, false},
		{"own apply from a newer parent", obj("a", lws), obj("b", lws), step{"lws", 0, 3}, true, false},
		{"own apply from an older parent", obj("a", lws), obj("b", lws), step{"lws", 0, 1}, true, true},
		{"own apply from another process", obj("a", lws), obj("b", lws), step{"lws", 1, 2}, true, true},
		{"own apply by another reconciler", obj("a", lws), obj("b", lws), step{"pod", 0, 2}, true, true},
		{"another manager's update overwritten", obj("a", user), obj("b", lws), same, true, true},
		{"forced over by another manager's apply", obj("a", lws), obj("b", other), same, true, true},
		{"managed by two", obj("a", lws, other), obj("b", lws), same, true, true},
		{"an update removes what an apply set", obj("a", lws), obj(""), same, false, true},
		{"no managedFields", obj("a"), obj("b"), same, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New(nil, nil)
			r.Trace.Drain = true
			write := func(index int, by step, verb string, content map[string]any, rv string) {
				r.Trace.Crashes = by.process
				r.Trace.Cur = &StepState{Step: outcome.Step{Index: index, Reconciler: by.rec, Object: "LeaderWorkerSet ns/db",
					Reads: []outcome.Read{{Object: "LeaderWorkerSet ns/db", Version: by.learn}, {Object: k.String(), Version: 1}}},
					Seen: map[book.Key]int{k: 0}}
				if err := r.recordWrite(t.Context(), k, outcome.Write{Verb: verb}, nil, func() (*book.History, bool, error) {
					return r.Book.Record(k, content, rv), r.Book.LastChanged(), nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			write(1, same, "apply", obj("", entry("lws", "Apply")), "1") // v1, the object as step 3 saw it
			write(2, same, "apply", tc.set, "2")                         // v2: step 2's write sets the label
			verb := "patch"
			if tc.apply {
				verb = "apply"
			}
			write(3, tc.by, verb, tc.last, "3") // v3: step 3's, which saw only v1
			if got := r.Trace.Failed != nil && r.Trace.Failed.Invariant == judge.NameLostWrite; got != tc.lost {
				t.Fatalf("lost write reported: %t, want %t (%+v)", got, tc.lost, r.Trace.Failed)
			}
			if tc.lost && !strings.Contains(r.Trace.Failed.Message, "metadata.labels."+label+" written by step 2") {
				t.Errorf("message %q", r.Trace.Failed.Message)
			}
		})
	}
}
