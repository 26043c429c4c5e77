package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (s112, helper CP): -fix did not look into a function literal
// a CreateOrPatch mutate's statement runs through a local (f := func()
// {...}; f(), or apply(f)). At 68b1b549 it moved the status statement
// of 13 of advcopclosure's 19 mutates while its meaning changed: past a
// closure setting the spec or labels it reads (before, setLabel, holder
// through spec := &w.Spec, handed, insideInt, chained through g := f and
// outer), leaving a closure that changes the status in the mutate
// (status, statusHolder), past a closure or an n++ setting a local it
// reads (counter, incInline), or running a closure that sets a local, or
// whose ids.Add would run on each attempt, in the Retry (next, effect);
// movingReads' closure reads the object CreateOrPatch had. Now each
// stays, its reason naming the local, the line it is called at and its
// literal's line; closures that only read, or touch neither the object
// nor what the status statement reads, still move (reader, untouched,
// pure): the golden has those three. held.go (s112, CP task 3): a
// closure capturing the object held by a slice, a struct, a range
// value or what a function returns ran unseen; at 10bbf880 its 5 such
// mutates moved. Each now stays, that value a holder of the whole
// object; a slice of closures capturing neither moves (notCaptured).
// deferred.go: a statement before the status statement deferring a
// literal, or a local's, that sets the spec it reads ran after it; at
// 10bbf880 both moved. Now the deferring statement's sets count after
// every other statement. effects.go: a closure a moving statement runs
// receiving from a channel would receive on each attempt; at 0aeebe31
// it moved, now it stays. statusread.go: a statement staying in the
// mutate read the status through st := &w.Status or o := w after the
// status statement set it; at a9096467 both moved (the staying read
// then saw the status CreateOrPatch read). Now each stays; reading
// o.Spec still moves (objectSpec).
func TestAdvCreateOrPatchClosure(t *testing.T) {
	for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advcopclosure") {
		var fixed []string
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				p := r.Pass.Fset.Position(d.Pos)
				fixed = append(fixed, fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
			}
		}
		slices.Sort(fixed)
		want := []string{"closure.go:135", "closure.go:148", "closure.go:221", "held.go:81", "statusread.go:38"}
		if len(r.Diagnostics) != 31 || !slices.Equal(fixed, want) {
			t.Errorf("%d findings, fixes at %v; want 31, %v", len(r.Diagnostics), fixed, want)
		}
	}
}

// A kept CreateOrPatch reason names one field the status statement reads
// and a later statement sets: the first in field-path order, not the
// first of a map's iteration (advcoporder; at 92b8ecd7, -count=6 named three fields).
func TestAdvCreateOrPatchReasonOrder(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advcoporder")
}
