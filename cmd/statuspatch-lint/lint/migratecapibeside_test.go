package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (C2 of s95): s94h kept a write in place made after a
// cluster-api-style patch helper of its object (besideHelper, asked only
// by planGroup). A write moved by another route beside one, a conflict
// loop, a helper given the object, an apply, or a write after a patch
// helper made in a function its function calls, moved at 676a4e9 onto a
// patcher of its own (4 of the 5 here): two patchers of one object, the
// later Flush conflicting on every reconcile. Fix now asks besideHelper of
// every route, helperCallers of each caller, and a helper made in a
// callee counts; the patch helper stays too, naming the write, also one
// written through a function its caller hands the object to. A helper
// whose Patch passes a field owner too was no patch helper to either
// side: owned's Update moved beside it; now it is one, and stays, naming
// its option when nothing else keeps it.
func TestMigrateCAPIBeside(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapibeside="}), "example.com/op/controllers/migratecapibeside")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto") {
					moved++
					t.Errorf("%s: moved beside a patch helper: %s", r.Pass.Fset.Position(d.Pos), f.Message)
				}
			}
		}
	}
	if moved != 0 {
		t.Errorf("%d writes moved beside a patch helper of their object, want 0", moved)
	}
}
