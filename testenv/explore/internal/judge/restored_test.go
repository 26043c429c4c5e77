package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// stepping is a recording Trace whose step being run is step, by
// reconciler by, having seen version seen of every object (-1: none).
type stepping struct {
	recording
	step int
	by   string
	seen int
}

func (s *stepping) Acting() *Acting {
	if s.step == 0 {
		return nil
	}
	seen := map[book.Key]int{}
	if s.seen >= 0 {
		seen[widgetKey] = s.seen
	}
	return &Acting{Step: s.step, Reconciler: s.by, Object: widgetKey.String(), Seen: seen, Made: map[book.Key]int{}}
}

var widgetKey = book.Key{GVK: schema.GroupVersionKind{Group: "test.statuspatch.io", Version: "v1", Kind: "Widget"},
	NN: types.NamespacedName{Namespace: "ns", Name: "w"}}

// widget is a version of Widget ns/w (uid u) with status st.
func widget(uid string, st map[string]any) map[string]any {
	return map[string]any{"metadata": map[string]any{"name": "w", "namespace": "ns", "uid": uid}, "status": st}
}

// write is a write of a schedule: the step, its reconciler, the version
// of the object it had seen (from 0; -1: none), and the version it made
// (nil: a delete).
type write struct {
	step int
	by   string
	seen int
	v    map[string]any
}

// judgeHistory records writes as the book records a schedule's, each
// judged by the checks, then judges the steady state, and returns the
// violations recorded.
func judgeHistory(t *testing.T, writes []write) []Failure {
	t.Helper()
	tr := &stepping{}
	var c Checks
	b := book.New(nil, func(h *book.History, prev map[string]any) {
		h.By[h.Newest()] = tr.step
		c.CheckWrite(h, prev)
	})
	c = NewChecks(b, tr)
	for i, w := range writes {
		tr.step, tr.by, tr.seen = w.step, w.by, w.seen
		b.Record(widgetKey, w.v, string(rune('a'+i)))
	}
	tr.step = 0
	steps := make([]Step, len(writes))
	for i := range steps {
		steps[i].Index = i + 1
	}
	c.CheckSteady(context.Background(), Steady{Steps: steps, First: len(steps), Fresh: func() client.Reader { return nil }})
	return tr.failed
}

// deleting is v being deleted, with finalizers fs.
func deleting(v map[string]any, fs ...string) map[string]any {
	m := v["metadata"].(map[string]any)
	m["deletionTimestamp"] = "2026-11-29T08:00:03Z"
	l := make([]any, len(fs))
	for i, f := range fs {
		l[i] = f
	}
	m["finalizers"] = l
	return v
}

func cond(typ, status, at string) map[string]any {
	return map[string]any{"type": typ, "status": status, "lastTransitionTime": at}
}

func conds(cs ...map[string]any) map[string]any {
	l := make([]any, len(cs))
	for i, c := range cs {
		l[i] = c
	}
	return map[string]any{"conditions": l}
}

// A lost write whose lost values a later write sets again, and the
// steady state holds, ranks below what persists, saying at which step;
// one whose values never come back keeps rank 2: the plan computed
// twice (two reconciles from one stale read build different plans, the
// second stays), a value written again and lost again, an object
// deleted, or created again under the name. A list loses the items the
// write took away (karpenter's lifecycle's stale conditions over
// disruption's): the steady state holds them again when a later write
// sets them again, whatever else the list holds then, in any order; with
// another lastTransitionTime, but for times, saying so. A loss on an
// object being deleted, gone in the steady state or still being deleted
// there held by no finalizer, ended with it; not one held by a
// finalizer, nor a loss of a finalizer, which decides when it goes.
func TestLostWriteRestoredInTheSteadyState(t *testing.T) {
	t0, t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:05Z", "2026-11-29T08:00:09Z"
	plan := func(id string) map[string]any { return map[string]any{"plan": map[string]any{"id": id}} }
	phase := func(p string) map[string]any { return map[string]any{"phase": p} }
	for _, tc := range []struct {
		name     string
		writes   []write
		restored *steady.Restoration
	}{
		{"plan computed twice, the second stays", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "planner", 0, widget("u1", plan("a"))},
			{2, "planner", 0, widget("u1", plan("b"))}, // from v1: a lost
			{3, "planner", 2, widget("u1", plan("b"))},
		}, nil},
		{"written again at step 3", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "acker", 0, widget("u1", phase("ready"))},
			{2, "stale", 0, widget("u1", phase("pending"))},
			{3, "acker", 2, widget("u1", phase("ready"))},
		}, &steady.Restoration{Version: 4, Step: 3}},
		{"written again, lost again", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "acker", 0, widget("u1", phase("ready"))},
			{2, "stale", 0, widget("u1", phase("pending"))},
			{3, "acker", 2, widget("u1", phase("ready"))},
			{4, "other", 3, widget("u1", phase("pending"))},
		}, nil},
		{"deleted", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "acker", 0, widget("u1", phase("ready"))},
			{2, "stale", 0, widget("u1", phase("pending"))},
			{3, "user", 2, nil},
		}, nil},
		{"created again", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "acker", 0, widget("u1", phase("ready"))},
			{2, "stale", 0, widget("u1", phase("pending"))},
			{3, "user", 2, nil},
			{4, "acker", 3, widget("u2", phase("ready"))},
		}, nil},
		{"conditions taken away, set again with other times", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "lifecycle", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1)))},
			{3, "disruption", 2, widget("u1", conds(cond("Drifted", "True", t2), cond("Launched", "True", t0), cond("Registered", "True", t1)))},
		}, &steady.Restoration{Version: 4, Step: 3, ButTimes: true}},
		{"conditions taken away, set again the same", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "lifecycle", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1)))},
			{3, "disruption", 2, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1), cond("Drifted", "True", t1)))},
		}, &steady.Restoration{Version: 4, Step: 3}},
		{"conditions taken away, set again to another status", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "lifecycle", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1)))},
			{3, "disruption", 2, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1), cond("Drifted", "False", t2)))},
		}, nil},
		{"conditions lost on an object being deleted, gone", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "user", 1, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1))), "f")},
			{3, "lifecycle", 0, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1))), "f")},
			{4, "lifecycle", 3, nil},
		}, &steady.Restoration{Version: 5, Step: 4, Ended: true}},
		{"conditions lost on an object being deleted, still there", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "user", 1, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1))), "f")},
			{3, "lifecycle", 0, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1))), "f")},
		}, nil},
		{"conditions lost on an object being deleted, no finalizer holding it", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "user", 1, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1))))},
			{3, "lifecycle", 0, deleting(widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1))))},
		}, &steady.Restoration{Version: 3, Step: 2, Ended: true, Deleting: true}},
		{"a finalizer lost on an object being deleted, gone", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "a", 0, deleting(widget("u1", nil), "a")},
			{2, "b", 0, deleting(widget("u1", nil), "b")},
			{3, "b", 2, nil},
		}, nil},
	} {
		failed := judgeHistory(t, tc.writes)
		if len(failed) != 1 {
			t.Fatalf("%s: violations %+v, want one lost write", tc.name, failed)
		}
		f := failed[0]
		s := SeverityOf(NameLostWrite, f)
		if tc.restored == nil {
			if f.Restored != nil || s.Rank != 2 {
				t.Errorf("%s: restored %+v, rank %d (%s); want not restored, rank 2", tc.name, f.Restored, s.Rank, s.Reason)
			}
			continue
		}
		if f.Restored == nil || *f.Restored != *tc.restored {
			t.Errorf("%s: restored %+v, want %+v", tc.name, f.Restored, *tc.restored)
			continue
		}
		want := "the lost values were written again at step 3 before the steady state"
		switch {
		case tc.restored.Deleting:
			want = "an object being deleted: its deletion asked for at step 2, it is being deleted in the steady state"
		case tc.restored.Ended:
			want = "the object, being deleted, was gone at step 4 before the steady state, the lost values with it"
		case tc.restored.ButTimes:
			want = "the lost values were written again, but for time-like fields, at step 3 before the steady state"
		}
		if s.Rank != RestoredRank || s.Rank <= stuck.Rank || s.Rank >= TimeOnly.Rank || !strings.Contains(s.Reason, want) {
			t.Errorf("%s: rank %d (%s), want %d saying %q", tc.name, s.Rank, s.Reason, RestoredRank, want)
		}
		if strings.Contains(f.Message, "written again") {
			t.Errorf("%s: message changed: %s", tc.name, f.Message)
		}
	}
}

// Without a steady state the checks of the steady state do not run: the
// loss keeps its rank (Exact or Unknown).
func TestLostWriteNoSteadyStateKeepsItsRank(t *testing.T) {
	tr := &stepping{}
	var c Checks
	b := book.New(nil, func(h *book.History, prev map[string]any) {
		h.By[h.Newest()] = tr.step
		c.CheckWrite(h, prev)
	})
	c = NewChecks(b, tr)
	for i, w := range []write{
		{0, "", -1, widget("u1", nil)},
		{1, "acker", 0, widget("u1", map[string]any{"phase": "ready"})},
		{2, "stale", 0, widget("u1", map[string]any{"phase": "pending"})},
		{3, "acker", 2, widget("u1", map[string]any{"phase": "ready"})},
	} {
		tr.step, tr.by, tr.seen = w.step, w.by, w.seen
		b.Record(widgetKey, w.v, string(rune('a'+i)))
	}
	if len(tr.failed) != 1 || tr.failed[0].Restored != nil || SeverityOf(NameLostWrite, tr.failed[0]).Rank != 2 {
		t.Errorf("no steady state: %+v, want one lost write at rank 2", tr.failed)
	}
}
