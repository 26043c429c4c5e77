package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the re-read's patcher assigned again (rereadreuse.go): a
// deferred failure write whose change is a helper of another package
// of the module (failmark.MarkFailed), before the tutorial's re-Get. At
// faa5cbbb every write stayed, the reason blaming the re-read; a helper
// whose body changes only the status (its ParamsFact) now lets the
// re-read assign the patcher again, as the change written in the
// literal does. A helper that keeps the object still blocks, and the
// reason names its call, its line and what its body does.
func TestDeferStatusHelper(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/deferstatushelper", "example.com/op/failmark")
}
