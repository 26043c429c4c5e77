package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Code that reads the status after a write that failed (issue 80, item 3
// of s102's review): a failed Update leaves the object as the code
// changed it, a failed Retry restores it (patcher/retry.go), so a
// decision moves into Retry only where the write's error path returns
// or nothing after it reads the status; otherwise it stays before a
// Flush, which leaves the object as Update did, the note naming the line.
func TestMigrateRetryFail(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateretryfail")
	const kept = "left outside Retry (a conflict waits for the next reconcile): line %d reads order's status when the write fails, which a failed Retry restores to before the decision (a failed write keeps it)"
	want := map[int]string{
		29: "(a Flush of p, the patcher made at line 25); check lines 26-28, " + fmt.Sprintf(kept, 30),
		46: "(a Flush of p, the patcher made at line 42); check lines 43-45, " + fmt.Sprintf(kept, 48),
		62: "(the decision in Retry of p, the patcher made at line 58)",
		78: "(NewWidgetStatusPatcher, then Flush); check lines 75-77, " + fmt.Sprintf(kept, 79),
		94: "(NewWidgetStatusPatcher, the decision in Retry)",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			if len(d.SuggestedFixes) != 1 || !strings.Contains(d.SuggestedFixes[0].Message, want[line]) {
				t.Errorf("line %d: fixes %v, want one saying %q", line, d.SuggestedFixes, want[line])
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
