package lint_test

import (
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
// pure): the golden has those three.
func TestAdvCreateOrPatchClosure(t *testing.T) {
	for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advcopclosure") {
		var fixed []int
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixed = append(fixed, r.Pass.Fset.Position(d.Pos).Line)
			}
		}
		if len(r.Diagnostics) != 19 || !slices.Equal(fixed, []int{135, 148, 221}) {
			t.Errorf("%d findings, fixes at lines %v; want 19, [135 148 221]", len(r.Diagnostics), fixed)
		}
	}
}
