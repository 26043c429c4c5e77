package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 72's -fix rules under attack (migratereview): a reused base, a
// copied base and a copy patched against its source move only when the
// patcher sends what the handwritten patch sent. 13 move (a reused base in
// a loop, after a dropped error, across a re-read; copies in goroutines;
// one copy two patches are built from, which goes with them; a base taken
// at the read, then an Update: one patcher of the object's life, issue
// 80); what stays says why: a change outside the status, an alias in a
// field, a closure, a base taken before a Get.
func TestMigrateReview(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/migratereview")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
				moved++
			}
		}
	}
	if moved != 13 {
		t.Errorf("%d writes moved onto a patcher, want 13", moved)
	}
}
