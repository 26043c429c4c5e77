package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A write deferred before its object's Get stays, naming the defer
// statement and the Get after it (migratepaths).
func TestMigrateDeferredBeforeRead(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratepaths="}),
		"example.com/op/controllers/migratepaths")
}

// A helper whose write stays, called on a path that cannot reach the
// write (another case of a switch, an early return's branch), is no
// writer between the read and the write; in a loop, it is
// (migratepathscase.go.golden).
func TestMigrateExclusiveCase(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratepathscase="}),
		"example.com/op/controllers/migratepathscase")
}
