package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// TestAdvOnceUnseen: a function of another package of the module, whose
// body the pass does not see, called by a decision moved into Retry with
// nothing of the decision (constants) is made once (sync.OnceValue), as
// the code before the move called it once; called with the object's
// fields it stays in the decision, a reader of the attempt's read.
// Helper GR (s107): sequtil.Next ran on each attempt, handing out a
// second number on a conflict.
func TestAdvOnceUnseen(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advonceunseen")
}
