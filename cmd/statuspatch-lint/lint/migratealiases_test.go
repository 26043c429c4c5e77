package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's names of one object (internal/migrate/originalias.go), s96:
// a copy of a value read with Get (kueue's clusterqueue_controller.go:213)
// moves, the patcher made at the copy; at fc01b3f it stayed, "c is not
// read with Get in this function". A copy of a read whose original is
// changed or written before the copy, or written after it, stays, naming
// that line (at fc01b3f: the same untrue "not read with Get").
func TestMigrateAliases(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratealiases="}), "example.com/op/controllers/migratealiases")
}
