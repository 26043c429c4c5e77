package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// kubebuilder's deploy-image Reconcile, as the newcomer route's Ferry
// writes it: the status read in the if that writes the Unknown condition
// and reads the object again, and in the deletion branch that always
// returns, cannot reach the token decided before the last write, which
// moves into Retry; before (97984e51) it stayed before a Flush, "ferry's
// status is read at line 38", and a 409 left the token to the next
// reconcile. Where the read does reach the decision (a return after the
// if's write, a variable set in the if, a success return inside it) the
// decision stays before a Flush; a case on the status moves into Retry
// with the decision, as before (tutorialhead.go.golden).
func TestTutorialHead(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/tutorialhead")
}
