package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review R3 of 8182036 (migrateretryouter.go): a List item's decision
// that sets outer state by a delete, a send, a literal it calls or a
// method of an outer map stays, as n++ does.
func TestAdvRetryOuter(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advretryouter")
}
