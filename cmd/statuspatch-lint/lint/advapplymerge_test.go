package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A blind merge patch whose base is taken after a kept apply of its
// object: moved onto a patcher made at the read, before the apply, its
// Flush conflicts whenever the apply changed anything, where the blind
// patch was stored (advapplymerge.go says what the fix should be). The
// patcher's placement beside an apply is the apply and group moves'
// (migrateapplybeside.go, migrategroup.go); not mended here.
func TestAdvApplyMerge(t *testing.T) {
	t.Skip("wrong move: see report")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/advapplymerge")
}
