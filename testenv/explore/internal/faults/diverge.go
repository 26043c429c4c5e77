package faults

import (
	"fmt"
	"reflect"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// A replay runs its schedule twice and compares what each step wrote,
// with what differs between any two runs taken out (resourceVersions,
// timestamps, the UIDs the server gives, each named by its object, and the
// names it generates from generateName, in order). A difference left is
// the operator's own randomness (random names, UUIDs, the clock):
// Result.Diverged says where.

// Run is one run of a schedule as a replay compares it: the book of the
// versions the server held, and the steps.
type Run struct {
	Book  *book.Book
	Steps []Step
}

// Step is what a replay compares of a step: its writes, named as the
// report names the step.
type Step struct {
	Index              int
	Reconciler, Object string
	Writes             []StepWrite
}

// StepWrite is a write of a step: verb, object, answer ("ok" or the
// error) and the version it made (0: none).
type StepWrite struct {
	Verb, Object, Answer string
	Version              int
}

// DivergedHint ends a divergence report.
const DivergedHint = ": the operator's own randomness (random names, UUIDs, the clock) decided differently; draw names and UUIDs from explore.SourceOf(c)"

// ClockHint ends a divergence report whose runs' server stamped
// creationTimestamps in another order before it (ClockOrder): clock.
func ClockHint(clock string) string {
	return ": the server's clock: " + clock + " (creationTimestamp has whole seconds); an operator that orders objects by it decides differently, which no seed controls"
}

// writePrint is what one write did, comparable between runs.
type writePrint struct {
	what    string // verb, object, answer
	content map[string]any
}

// prints lists, per step, what its writes did.
func (r Run) prints() [][]writePrint {
	uids, objLabel := r.Book.ServerLabels()
	byName := map[string]*book.History{}
	for _, k := range r.Book.Keys() {
		byName[k.String()] = r.Book.History(k)
	}
	out := make([][]writePrint, len(r.Steps))
	for i, s := range r.Steps {
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
			if h := byName[w.Object]; h != nil && w.Version > 0 && w.Version <= len(h.Versions) && h.Versions[w.Version-1] != nil {
				p.content = book.Comparable(h.Versions[w.Version-1], uids).(map[string]any)
			}
			out[i] = append(out[i], p)
		}
	}
	return out
}

// Divergence compares two runs of one schedule: "" when they match, else
// where they first differ, and clock, what the server's clock did
// differently before that step (ClockOrder), or "".
func Divergence(a, b Run) (where, clock string) {
	d := firstDifference(a, b)
	if d.where == "" || d.objA == "" || d.objA == d.objB {
		return d.where, ""
	}
	return d.where, ClockOrder(a, b, d.step, d.objA, d.objB)
}

// difference is where two runs first differ: the step's index, and, where
// a write of it went to another object, that object in each run.
type difference struct {
	where      string
	step       int
	objA, objB string
}

// firstDifference is where a and b first differ.
func firstDifference(a, b Run) difference {
	pa, pb := a.prints(), b.prints()
	for i := 0; i < len(pa) && i < len(pb); i++ {
		step := a.Steps[i]
		where := fmt.Sprintf("step %d (%s", step.Index, step.Reconciler)
		if step.Object != "" {
			where += " reconciles " + step.Object
		}
		where += ")"
		if len(pa[i]) != len(pb[i]) {
			return difference{where: fmt.Sprintf("%s made %d writes the first time, %d the second", where, len(pa[i]), len(pb[i])), step: step.Index}
		}
		for j := range pa[i] {
			wa, wb := pa[i][j], pb[i][j]
			if wa.what != wb.what {
				return difference{where: fmt.Sprintf("%s, write %d: %q the first time, %q the second", where, j+1, wa.what, wb.what), step: step.Index,
					objA: a.Steps[i].Writes[j].Object, objB: b.Steps[i].Writes[j].Object}
			}
			if !reflect.DeepEqual(wa.content, wb.content) {
				return difference{where: fmt.Sprintf("%s, write %d (%s) made %s", where, j+1, wa.what, book.FirstDifference(wa.content, wb.content)), step: step.Index}
			}
		}
	}
	if len(pa) != len(pb) {
		return difference{where: fmt.Sprintf("the first run had %d steps, the second %d", len(pa), len(pb)), step: min(len(pa), len(pb)) + 1}
	}
	return difference{}
}
