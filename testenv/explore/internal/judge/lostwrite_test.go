package judge

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
)

// keyedConditions is a schema keying status.conditions by type; nil
// would be a kind whose schema is not known.
var keyedConditions = book.SchemaListKeys(map[string]any{"properties": map[string]any{
	"status": map[string]any{"properties": map[string]any{
		"conditions": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"type"}},
	}},
}})

func withConditions(cs ...map[string]any) map[string]any {
	l := make([]any, len(cs))
	for i, c := range cs {
		l[i] = c
	}
	return map[string]any{"status": map[string]any{"conditions": l}}
}

func condition(typ, status, at string) map[string]any {
	return map[string]any{"type": typ, "status": status, "lastTransitionTime": at}
}

// The fresh write is compared by the schema's keys: the same conditions
// in another order are the same; in another order with other times, a
// loss of times only; without the schema (an atomic list), the same
// items in another order, with or without other times, differ in order
// only.
func TestFreshDifferenceByListKeys(t *testing.T) {
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:07Z"
	cur := withConditions(condition("Launched", "True", t1), condition("Registered", "True", t1))
	leaves := []book.Leaf{{Dotted: "status.conditions", Fields: []string{"status", "conditions"}}}
	for _, tc := range []struct {
		name  string
		fresh map[string]any
		keys  book.ListKeys
		want  book.Difference
	}{
		{"reordered", withConditions(condition("Registered", "True", t1), condition("Launched", "True", t1)), keyedConditions, book.Same},
		{"reordered, no schema", withConditions(condition("Registered", "True", t1), condition("Launched", "True", t1)), nil, book.OrderOnly},
		{"reordered and retimed, no schema", withConditions(condition("Registered", "True", t2), condition("Launched", "True", t1)), nil, book.OrderOnly},
		{"reordered, another status, no schema", withConditions(condition("Registered", "False", t1), condition("Launched", "True", t1)), nil, book.Other},
		{"reordered and retimed", withConditions(condition("Registered", "True", t2), condition("Launched", "True", t1)), keyedConditions, book.TimesOnly},
		{"retimed in order, no schema", withConditions(condition("Launched", "True", t1), condition("Registered", "True", t2)), nil, book.TimesOnly},
		{"another status", withConditions(condition("Registered", "False", t1), condition("Launched", "True", t1)), keyedConditions, book.Other},
		{"no fresh write", nil, keyedConditions, book.Other},
	} {
		if got := FreshDifference(leaves, cur, tc.fresh, tc.keys); got != tc.want {
			t.Errorf("%s: FreshDifference = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// recording is a Trace that keeps the violations.
type recording struct{ failed []Failure }

func (r *recording) Acting() *Acting { return nil }
func (r *recording) Fail(_ string, f Failure) {
	r.failed = append(r.failed, f)
}
func (r *recording) Retract(_ string, msg string) {
	for i, f := range r.failed {
		if f.Message == msg {
			r.failed = append(r.failed[:i], r.failed[i+1:]...)
			return
		}
	}
}
func (r *recording) TimeOnly(_ string, msg, note string) {
	for i, f := range r.failed {
		if f.Message == msg {
			r.failed[i].TimeOnly, r.failed[i].Message = true, msg+note
		}
	}
}
func (r *recording) Restored(_ string, msg string, at steady.Restoration) {
	for i, f := range r.failed {
		if f.Message == msg {
			r.failed[i].Restored = &at
		}
	}
}
func (r *recording) OrderOnly(_ string, msg, note string) {
	for i, f := range r.failed {
		if f.Message == msg {
			r.failed[i].OrderOnly, r.failed[i].Message = true, msg+note
		}
	}
}
func (r *recording) WriteNote() string { return "" }

// A suspect lost write the fresh schedule's write matches but for
// times stands as a loss of times only (TimeOnly), saying so; one whose
// atomic list the fresh write sends in another order (times aside)
// stands ranked last as well, as a loss of order only (OrderOnly, not
// TimeOnly), saying that; one it matches is taken back; one it does
// not, stands as it was.
func TestJudgeAfterTimesOnlyStandsRankedLast(t *testing.T) {
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:07Z"
	cur := withConditions(condition("Launched", "True", t1), condition("Registered", "True", t1))
	leaves := []book.Leaf{{Dotted: "status.conditions", Fields: []string{"status", "conditions"}}}
	at := WriteAt{pos: 2, key: book.Key{}}
	for _, tc := range []struct {
		name   string
		fresh  map[string]any
		keys   book.ListKeys
		stands bool
		last   Severity // zero: not last
		says   string
	}{
		{"the same, reordered", withConditions(condition("Registered", "True", t1), condition("Launched", "True", t1)), keyedConditions, false, Severity{}, ""},
		{"reordered and retimed", withConditions(condition("Registered", "True", t2), condition("Launched", "True", t1)), keyedConditions, true, TimeOnly, "time-like fields"},
		{"another status", withConditions(condition("Registered", "False", t1), condition("Launched", "True", t1)), keyedConditions, true, Severity{}, ""},
		{"atomic, reordered", withConditions(condition("Registered", "True", t1), condition("Launched", "True", t1)), nil, true, OrderOnly, "the same items in another order"},
		{"atomic, reordered and retimed", withConditions(condition("Registered", "True", t2), condition("Launched", "True", t1)), nil, true, OrderOnly, "the same items in another order"},
		{"atomic, another status", withConditions(condition("Registered", "False", t1), condition("Launched", "True", t1)), nil, true, Severity{}, ""},
	} {
		tr := &recording{}
		c := NewChecks(nil, tr)
		f := Failure{Object: "NodeClaim default-a", Fields: []string{"status.conditions"}, Message: "status.conditions written by step 1 overwritten by step 3"}
		tr.Fail(NameLostWrite, f)
		c.lwSuspects = []suspectWrite{{at: at, cur: cur, leaves: leaves, keys: tc.keys, lost: []Lost{{Failure: f}}}}
		fresh := &Fresh{writes: map[WriteAt]map[string]any{at: tc.fresh}, faulted: true}
		err := c.JudgeAfter(nil, func(int) (*Fresh, error) { return fresh, nil })
		if err != nil {
			t.Fatal(err)
		}
		if stands := len(tr.failed) == 1; stands != tc.stands {
			t.Fatalf("%s: violations %+v, want standing %t", tc.name, tr.failed, tc.stands)
		}
		if !tc.stands {
			continue
		}
		got := tr.failed[0]
		if got.TimeOnly != (tc.last == TimeOnly) || got.OrderOnly != (tc.last == OrderOnly) ||
			(tc.says != "") != strings.HasSuffix(got.Message, ")") || !strings.Contains(got.Message, tc.says) {
			t.Errorf("%s: %+v, want ranked last as %q, saying %q", tc.name, got, tc.last.Reason, tc.says)
		}
		want := SeverityOf(NameLostWrite, Failure{})
		if tc.last != (Severity{}) {
			want = tc.last
		}
		if s := SeverityOf(NameLostWrite, got); s != want {
			t.Errorf("%s: ranked %v, want %v", tc.name, s, want)
		}
	}
}

// A write that changed only the times inside a keyed list, in another
// order, loses times only (ranked last, saying so); without the schema,
// the order is a decision.
func TestLostWriteTimesInsideAMapList(t *testing.T) {
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:07Z"
	prev := withConditions(condition("A", "True", t1), condition("B", "True", t1))
	cur := withConditions(condition("B", "True", t2), condition("A", "True", t1))
	for _, tc := range []struct {
		keys book.ListKeys
		want bool
	}{{keyedConditions, true}, {nil, false}} {
		h := &book.History{Versions: []map[string]any{prev, cur}, Owners: map[string]book.Owner{
			"status.conditions": {Version: 0, Step: 1, By: "r"},
		}}
		_, lost := LostWrite(h, prev, Writer{Step: 2, By: "r", Seen: -1}, tc.keys)
		if len(lost) != 1 {
			t.Fatalf("schema known %t: lost %+v, want one", tc.keys != nil, lost)
		}
		if lost[0].TimeOnly != tc.want || strings.Contains(lost[0].Message, "time-like") != tc.want {
			t.Errorf("schema known %t: %+v, want time-only %t", tc.keys != nil, lost[0].Failure, tc.want)
		}
	}
}

// A loss over another writer's field is the writer's own (judged again
// fresh, noted in the message) only where the replaced value is one its
// reconciler's write set earlier under the name: a user's create copying
// r's value, not a value the user chose, nor one r's write only kept.
func TestLostWriteOverOwnValues(t *testing.T) {
	obj := func(uid string, labels ...string) map[string]any {
		l := map[string]any{}
		for i := 0; i+1 < len(labels); i += 2 {
			l[labels[i]] = labels[i+1]
		}
		return map[string]any{"metadata": map[string]any{"uid": uid, "labels": l}}
	}
	type version struct {
		obj  map[string]any
		by   string // "": a user's
		step int
	}
	for _, tc := range []struct {
		name     string
		versions []version // after v1, absent; the last is r's write from v1
		own      bool
	}{
		{"the user's create copies r's value", []version{{obj("a", "size", "0"), "r", 1}, {nil, "", 2},
			{obj("b", "size", "0"), "", 2}, {obj("b", "size", "1"), "r", 3}}, true},
		{"a value the user chose", []version{{obj("a", "size", "0"), "r", 1}, {nil, "", 2},
			{obj("b", "size", "9"), "", 2}, {obj("b", "size", "1"), "r", 3}}, false},
		{"a value r's write kept", []version{{obj("a", "size", "0"), "", 1}, {obj("a", "size", "0", "x", "1"), "r", 2},
			{nil, "", 3}, {obj("b", "size", "0"), "", 3}, {obj("b", "size", "1"), "r", 4}}, false},
		{"another reconciler's create sets r's value", []version{{obj("a", "size", "0"), "r", 1}, {nil, "q", 2},
			{obj("b", "size", "0"), "q", 2}, {obj("b", "size", "1"), "r", 3}}, false},
		{"the user set r's value back", []version{{obj("a", "size", "0"), "r", 1}, {obj("a", "size", "5"), "", 2},
			{obj("a", "size", "0"), "", 3}, {obj("a", "size", "1"), "r", 4}}, false},
	} {
		h := &book.History{Versions: []map[string]any{nil}, Owners: map[string]book.Owner{}}
		made := map[int]string{}
		var lost []Lost
		for _, v := range tc.versions {
			prev := h.Versions[h.Newest()]
			h.Versions = append(h.Versions, v.obj)
			w := Writer{Step: v.step, By: v.by, Seen: -1, Made: func(i int) string { return made[i] }}
			_, lost = LostWrite(h, prev, w, nil)
			made[h.Newest()] = v.by
		}
		if len(lost) != 1 || !strings.Contains(lost[0].Message, "metadata.labels.size written by step") {
			t.Fatalf("%s: lost %+v, want metadata.labels.size", tc.name, lost)
		}
		if lost[0].SameWriter != tc.own || strings.Contains(lost[0].Message, "r's own earlier write") != tc.own {
			t.Errorf("%s: %+v, want judged as r's own %t", tc.name, lost[0], tc.own)
		}
	}
}
