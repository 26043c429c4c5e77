package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// TestMigrateCondRef: a kind's method that returns a reference into its
// status, handed to meta.SetStatusCondition, changes only the status.
func TestMigrateCondRef(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migratecondref")
}
