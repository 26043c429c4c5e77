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
// move onto a patcher made over &w (issue 80 B1; they stayed, asking for
// a pointer variable); a package variable's address stays, named as
// one (migratevalue).
func TestMigrateValueObject(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migratevalue")
}

// A Get whose error a test assertion that ends the function checks
// (gomega's Expect(...).To(Succeed()), require.NoError) is a read -fix
// makes the patcher after; one that passes on an error stays
// (migrateasserted; kueue's test/util).
func TestMigrateAssertedRead(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migrateasserted")
}
