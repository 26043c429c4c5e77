package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's B2 (migrateloop): a status write in a conflict loop of
// client-go's retry package (retry.RetryOnConflict, retry.OnError with
// apierrors.IsConflict) whose function reads the object with Get, then
// decides and writes. The loop becomes the patcher's Fetch and Retry,
// the decision Retry's mutate, which decides again from a fresh read on
// a conflict. At c04149b each of the seven moved onto a patcher made after
// the Get in the loop and a Flush: a conflict (or the patcher's own
// refusal of a stale copy) re-read the same lagging cache and decided
// again (decisions twice 1/0/3 in three manager runs of u's project B).
func TestMigrateLoop(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateloop")
	retried := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.Contains(f.Message, "(FetchWidgetStatusPatcher, the loop's decision in Retry)") {
					retried++
				}
			}
		}
	}
	if retried != 9 {
		t.Errorf("%d conflict loops made the patcher's Retry, want 9", retried)
	}
}
