package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A re-read after a moved write that no write of its patcher can follow
// (kubebuilder's deletion branch, returning once the finalizer is
// removed) keeps only the Fetch's read, in the Get's own form
// (`if _, err = ...`, `_, err := ...`): the patcher assigned there and
// never flushed failed staticcheck's SA4006 in the user's make lint.
// Where a write can follow (a loop's next turn, a literal made before and
// called after, a deferred literal registered before, a branch that falls
// through) the Fetch assigns the patcher (fetchdrop.go.golden).
func TestFetchDrop(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/fetchdrop")
}
