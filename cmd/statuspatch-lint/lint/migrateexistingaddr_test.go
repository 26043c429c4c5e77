package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// An object handed by address beside the code's patcher (issue 80, item
// 1 of s102's review): the kept reason was "order is assigned again",
// which the code does not do. It names the hand-off now, and a value
// object handed to a function of the module that changes only its
// status moves (the callee's summary, checkUses).
func TestMigrateExistingAddr(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateexistingaddr")
}
