package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// The note of a decision kept before the code's patcher's Flush (issue
// 80, item 5 of s102's review) names the decision's own reason: an early
// `if ... { return p.Flush(ctx) }` before it did not run on the write's
// path and is no part of it (migrateretrynote.go, writingExit). Before,
// the note said "the return at line 25 returns p.Flush(ctx), which may
// be nil there". A return of the decision itself is still named
// (TestAdvRetryErr's messages unchanged).
func TestMigrateRetryNote(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateretrynote")
	want := map[int]string{
		31: "check lines 27-30, left outside Retry (a conflict waits for the next reconcile): it sets n at line 28, declared outside it",
		47: "check lines 42-46, left outside Retry (a conflict waits for the next reconcile): the return at line 44 gives this function's result (true, nil) with no error",
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
