package explore

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A replay runs its schedule twice and compares what each step wrote,
// with what differs between any two runs taken out (resourceVersions,
// timestamps, the UIDs the server gives, each named by its object, and the
// names it generates from generateName, in order). A
// difference left is the operator's own randomness (random names, UUIDs,
// the clock): Result.Diverged says where.

// writePrint is what one write did, comparable between runs.
type writePrint struct {
	what    string // verb, object, answer
	content map[string]any
}

// prints lists, per step, what its writes did.
func (r *run) prints() [][]writePrint {
	uids, objLabel := r.serverLabels()
	byName := map[string]*history{}
	for _, k := range r.order {
		byName[k.String()] = r.hist[k]
	}
	out := make([][]writePrint, len(r.steps))
	for i, s := range r.steps {
		for _, w := range s.Writes {
			answer := "ok"
			if w.Answer != "ok" {
				answer = "error"
			}
			obj := w.Object
			if l := objLabel[obj]; l != "" {
				obj = l
			}
			p := writePrint{what: w.Verb + " " + obj + ": " + answer}
			if h := byName[w.Object]; h != nil && w.Version > 0 && w.Version <= len(h.versions) && h.versions[w.Version-1] != nil {
				p.content = mapUIDs(normalized(h.versions[w.Version-1]), uids).(map[string]any)
			}
			out[i] = append(out[i], p)
		}
	}
	return out
}

func mapUIDs(v any, uids map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			out[k] = mapUIDs(c, uids)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = mapUIDs(c, uids)
		}
		return out
	case string:
		if l, ok := uids[t]; ok {
			return l
		}
	}
	return v
}

// divergence compares two runs of one schedule: "" when they match.
func divergence(a, b *run) string {
	pa, pb := a.prints(), b.prints()
	for i := 0; i < len(pa) && i < len(pb); i++ {
		step := a.steps[i]
		where := fmt.Sprintf("step %d (%s", step.Index, step.Reconciler)
		if step.Object != "" {
			where += " reconciles " + step.Object
		}
		where += ")"
		if len(pa[i]) != len(pb[i]) {
			return fmt.Sprintf("%s made %d writes the first time, %d the second", where, len(pa[i]), len(pb[i]))
		}
		for j := range pa[i] {
			wa, wb := pa[i][j], pb[i][j]
			if wa.what != wb.what {
				return fmt.Sprintf("%s, write %d: %q the first time, %q the second", where, j+1, wa.what, wb.what)
			}
			if !reflect.DeepEqual(wa.content, wb.content) {
				return fmt.Sprintf("%s, write %d (%s) made %s", where, j+1, wa.what, leafDiff(wa.content, wb.content))
			}
		}
	}
	if len(pa) != len(pb) {
		return fmt.Sprintf("the first run had %d steps, the second %d", len(pa), len(pb))
	}
	return ""
}

// leafDiff names the first differing leaves of two versions.
func leafDiff(a, b map[string]any) string {
	var paths []string
	diffLeaves("", a, b, &paths)
	if len(paths) == 0 {
		return "different objects"
	}
	p := strings.TrimPrefix(paths[0], ".")
	va, _, _ := unstructured.NestedFieldNoCopy(a, strings.Split(p, ".")...)
	vb, _, _ := unstructured.NestedFieldNoCopy(b, strings.Split(p, ".")...)
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	more := ""
	if len(paths) > 1 {
		more = fmt.Sprintf(" (and %d more fields)", len(paths)-1)
	}
	return fmt.Sprintf("%s %s the first time, %s the second%s", p, shorten(string(ja), 80), shorten(string(jb), 80), more)
}

// divergedHint ends a divergence report.
const divergedHint = ": the operator's own randomness (random names, UUIDs, the clock) decided differently; draw names and UUIDs from explore.SourceOf(c)"

// serverLabels names what the server chose in this schedule by the object
// it belongs to: each UID ("(uid of Widget ns/w #1)") and each name made
// from generateName ("(w-generated-1)"), and gives each object's label.
// Two runs of one schedule, or two schedules reaching one state, then
// compare equal.
func (r *run) serverLabels() (uids, objLabel map[string]string) {
	uids = map[string]string{} // and names the server generated
	objLabel = map[string]string{}
	generated := 0
	for _, k := range r.order {
		h := r.hist[k]
		objLabel[k.String()] = k.String()
		for _, v := range h.versions {
			if prefix, _, _ := unstructured.NestedString(v, "metadata", "generateName"); prefix != "" {
				generated++
				label := fmt.Sprintf("(%sgenerated-%d)", prefix, generated)
				uids[k.nn.Name] = label
				lk := k
				lk.nn.Name = label
				objLabel[k.String()] = lk.String()
				break
			}
		}
	}
	for _, k := range r.order {
		n := 0
		for _, v := range r.hist[k].versions {
			uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
			if _, ok := uids[uid]; uid != "" && !ok {
				n++
				uids[uid] = fmt.Sprintf("(uid of %s #%d)", objLabel[k.String()], n)
			}
		}
	}
	return uids, objLabel
}
