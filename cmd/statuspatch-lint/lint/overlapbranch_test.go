package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Two patchers of one object are "alive at once" only where a path of
// the function runs through one's write to the other's: kubebuilder's
// project-v4-with-plugins kept all 12 of its writes since 6db7d7c6 for a
// re-Get and write in a failure branch that returns (Resize), whose text
// lies inside the span of the last write's patcher. Where the branch
// falls through to that write, or a loop's next turn flushes the first
// patcher, the writes stay (overlapbranch.go.golden).
func TestOverlapBranch(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/overlapbranch")
}
