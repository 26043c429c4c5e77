package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (project D's Quota): a decision from the status whose
// declared names are used after the write moves into Retry, the names
// declared before it (carried.go in migrateapply and migratemerge).
func TestMigrateCarried(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}),
		"example.com/op/controllers/migrateapply", "example.com/op/controllers/migratemerge")
}
