package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A List item's decision that calls what acts outside the item (s111's
// adversary): an event recorded, a counter of a field, a package variable
// set by a function of the package.
func TestAdvRetrySide(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advretryside")
}
