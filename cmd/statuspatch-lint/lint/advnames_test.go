package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the qualifier (migratetext.go): a file importing the patchers
// already, a function declaring a local of that name. The write stays;
// at fc01b3f its fix named the local, and the package did not build.
func TestAdvNames(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advnames")
}
