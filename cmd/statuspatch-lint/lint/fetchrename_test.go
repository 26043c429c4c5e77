package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A re-read after a moved write whose error variable is the if's own and
// an outer err is read after it (kubebuilder's resize branch) becomes the
// patcher's Fetch with the if's err renamed fetchErr (fetchErr2 where the
// name is taken or an earlier if of the block may take it); a branch that
// gives that err to a write through the client keeps the Get
// (fetchrename.go.golden).
func TestFetchRename(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/fetchrename")
}
