package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's composed writes (migratelife): kubebuilder's tutorial on
// one object in one Reconcile (an Update, the re-Get, a MergeFrom patch),
// writes on exclusive paths, a deferred write. Each function's writes
// share one patcher made at the object's read; a status change between a
// write and the next base (on any path) starts another life; a deferred
// write after a spec change, and a list item's write (a cached copy:
// Fetch it), stay with the line. On main, 4 of these 9 moved.
func TestMigrateLife(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migratelife")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
				moved++
			} else if !strings.Contains(d.Message, "(not moved to the patcher: ") {
				t.Errorf("%s: not moved, and no reason: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if moved != 9 {
		t.Errorf("%d writes moved onto a patcher, want 9", moved)
	}
}
