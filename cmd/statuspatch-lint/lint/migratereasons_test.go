package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// -fix adds the imports it needs to the group of their kind, as goimports
// -local groups them: the patcher runtime among the other modules', not
// after the module's own packages (migrateimports.go.golden).
func TestMigrateImportGroups(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migrateimports")
}

// A status write in a function literal that stays says which function
// its reason means: the literal by its line, or the declaration whose
// parameter it writes (migrateclosure).
func TestMigrateClosureReasons(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateclosure="}),
		"example.com/op/controllers/migrateclosure")
}

// The tutorial's value object (var w v1.Widget, written as &w): its writes
// stay, saying the patcher needs a pointer variable and which declaration
// to change, not that &w is no variable (migratevalue).
func TestMigrateValueObjectReason(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migratevalue")
}
