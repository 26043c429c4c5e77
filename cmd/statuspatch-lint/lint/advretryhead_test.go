package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the Retry move (migrateretryhead.go): a status read before
// the decision that cannot run in Retry's mutate (an early return, the
// if with an else or the case around the write, a break of a List
// item's loop) keeps the decision out of Retry. At fc01b3f the statements
// after it moved alone: on a conflict Retry decided again from a fresh
// read without the check, and built a plan over the one another
// reconcile stored. The whole-if, the continue and (since s105, its
// target resolved) the labelled continue of the loop the write ends
// move into Retry here, the label dropped; and (since s106) the early
// return that gives what the write's success gives, mutate's return nil.
func TestAdvRetryHead(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advretryhead")
	retried := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					retried += strings.Count(string(e.NewText), "Patcher.Retry(ctx, func(")
				}
			}
		}
	}
	if retried != 5 {
		t.Errorf("%d writes moved into Retry, want 5", retried)
	}
}
