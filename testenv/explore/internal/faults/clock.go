package faults

import (
	"fmt"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The server stamps creationTimestamp with its own clock, in whole
// seconds: two objects created a few milliseconds apart share a second in
// one run and straddle a second's end in the next. An operator that
// orders objects by it, ties broken by name (Cluster API's MachineSets,
// mdutil's sorts), then decides differently though every choice and name
// was the same, and no seed controls it. A replay that diverges says so
// when the books show it: two objects of a kind, created before the step
// where the runs differ, whose creationTimestamps are in one order in
// one run (or in the same second) and in another in the other.

// life is one life of an object (created, maybe deleted) before a step:
// its label (comparable between runs), kind and creationTimestamp.
type life struct {
	label, kind string
	created     time.Time
}

// livesBefore lists the lives of r's objects created before step (their
// first version made by an earlier step, or by none: the scenario's
// objects, or one first met by a read), keyed by label and the life's
// number.
func livesBefore(r Run, step int) map[string]life {
	_, objLabel := r.Book.ServerLabels()
	out := map[string]life{}
	for _, k := range r.Book.Keys() {
		h := r.Book.History(k)
		n := 0
		for i, v := range h.Versions {
			if v == nil || (i > 0 && h.Versions[i-1] != nil) {
				continue // not a life's first version
			}
			n++
			if i < len(h.By) && h.By[i] >= step {
				continue
			}
			ts, _, _ := unstructured.NestedString(v, "metadata", "creationTimestamp")
			t, err := time.Parse(time.RFC3339, ts)
			if err != nil {
				continue // no stamp the server gave: nothing to compare
			}
			label := objLabel[k.String()]
			out[fmt.Sprintf("%s #%d", label, n)] = life{label: label, kind: k.GVK.GroupKind().String(), created: t}
		}
	}
	return out
}

// ClockOrder says, for a replay whose runs a and b first differ at step,
// which two objects of a kind created before it the server stamped in
// another order the second time: "" when every such pair is in the same
// order (or in the same second) in both runs.
func ClockOrder(a, b Run, step int) string {
	la, lb := livesBefore(a, step), livesBefore(b, step)
	var ids []string
	for id := range la {
		if _, ok := lb[id]; ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for i, x := range ids {
		for _, y := range ids[i+1:] {
			if la[x].kind != la[y].kind {
				continue
			}
			ra, rb := la[x].created.Compare(la[y].created), lb[x].created.Compare(lb[y].created)
			if ra != rb {
				return fmt.Sprintf("%s was created %s %s the first time, %s it the second",
					la[x].label, relation(ra), bareName(la[y].label), relation(rb))
			}
		}
	}
	return ""
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
	for i := range label {
		if label[i] == ' ' {
			return label[i+1:]
		}
	}
	return label
}
