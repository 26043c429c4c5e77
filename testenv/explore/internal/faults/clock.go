package faults

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The server stamps creationTimestamp with its own clock, in whole
// seconds: two objects created a few milliseconds apart share a second in
// one run and straddle a second's end in the next. An operator that
// picks the first of its objects sorted by it, ties broken by name
// (Cluster API's MachineSets, mdutil's sorts), then writes the other one
// though every choice and name was the same, and no seed controls it. A
// replay that diverges so says it when the books show it: a write of the
// step where the runs differ went to object x the first time and y the
// second, both created before that step, and the server stamped them in
// one order (or in the same second) the first time and in another the
// second. Any other divergence is the operator's own randomness, as
// before: a clock that only reordered objects the write does not name is
// no evidence of what decided it.

// life is the last life of an object (created, maybe deleted) begun
// before a step: its label (comparable between runs), kind and
// creationTimestamp.
type life struct {
	label, kind string
	created     time.Time
}

// livesBefore lists r's objects created before step (the first version
// of their last life so far made by an earlier step, or by none: the
// scenario's objects, or one first met by a read), by label (objLabel:
// book.ServerLabels).
func livesBefore(r Run, objLabel map[string]string, step int) map[string]life {
	out := map[string]life{}
	for _, k := range r.Book.Keys() {
		h := r.Book.History(k)
		for i, v := range h.Versions {
			if v == nil || (i > 0 && h.Versions[i-1] != nil) {
				continue // not a life's first version
			}
			if i < len(h.By) && h.By[i] >= step {
				break
			}
			ts, _, _ := unstructured.NestedString(v, "metadata", "creationTimestamp")
			t, err := time.Parse(time.RFC3339, ts)
			if err != nil {
				delete(out, objLabel[k.String()])
				continue // no stamp the server gave: nothing to compare
			}
			label := objLabel[k.String()]
			out[label] = life{label: label, kind: k.GVK.GroupKind().String(), created: t}
		}
	}
	return out
}

// ClockOrder says, for a replay whose runs a and b first differ at step
// by a write to object x (a's) and y (b's), how the server stamped x and
// y in another order the second time: "" when it did not (or one of them
// was not created before the step in both runs).
func ClockOrder(a, b Run, step int, x, y string) string {
	_, labelA := a.Book.ServerLabels()
	_, labelB := b.Book.ServerLabels()
	la, lb := livesBefore(a, labelA, step), livesBefore(b, labelB, step)
	x, y = cmp.Or(labelA[x], x), cmp.Or(labelB[y], y) // a generated name's label
	xa, ok1 := la[x]
	ya, ok2 := la[y]
	xb, ok3 := lb[x]
	yb, ok4 := lb[y]
	if !ok1 || !ok2 || !ok3 || !ok4 || xa.kind != ya.kind {
		return ""
	}
	ra, rb := xa.created.Compare(ya.created), xb.created.Compare(yb.created)
	if ra == rb {
		return ""
	}
	return fmt.Sprintf("%s was created %s %s the first time, %s it the second",
		xa.label, relation(ra), bareName(ya.label), relation(rb))
}

// relation words c, a Compare of two creationTimestamps.
func relation(c int) string {
	switch {
	case c < 0:
		return "in a second before"
	case c > 0:
		return "in a second after"
	}
	return "in the same second as"
}

// bareName is a label without its kind: "capi/workers-x" of
// "MachineSet capi/workers-x".
func bareName(label string) string {
	if _, name, ok := strings.Cut(label, " "); ok {
		return name
	}
	return label
}
