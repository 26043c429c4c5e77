package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Beside a patcher the code made, a decision stays before p's Flush where
// Retry would change what the code does (found by review of s101R): a
// status change through p.Object() (Retry would refuse it as pending,
// every time), an event in the decision (recorded again on each attempt),
// and obj = p.Object() with no declaration there (the variable would be
// left unused: the file would not build); a guard left around the Retry
// keeps obj := p.Object(), which it reads. The golden builds
// (TestMigratedGoldensBuild). Before, the first, the third and the fourth
// became Retries, the second's declaration was deleted.
func TestMigrateExistingRetryReview(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/migrateexistingretryrev")
	var fixes []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				fixes = append(fixes, f.Message)
			}
		}
	}
	all := strings.Join(fixes, "\n")
	for _, want := range []string{
		"a Flush of p, the patcher made at line 28); check lines 29-32, left outside Retry (a conflict waits for the next reconcile): p is handed on or used at line 29",
		"the decision in Retry of p, the patcher made at line 43",
		"a Flush of p, the patcher made at line 61",
		"the call r.Recorder.Eventf at line 77 would run again on each attempt",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no fix says %q; the fixes:\n%s", want, all)
		}
	}
}
