package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the value-object move (migratevalue.go): a range variable,
// a copy of an item, a copy after the write, &v sent to a goroutine,
// stored in a field or a map, returned; a Get in a helper; a named
// result; parameters by value; two values of one kind; a defer taking a
// copy; a re-Get with another key; v reassigned between two writes; a
// pointer alias. Each moves with one patcher over &v, or stays naming
// its line.
func TestAdvValue(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advvalue="}), "example.com/op/controllers/advvalue")
}

// More of the same review: a defer of the write before a re-Get (the
// patcher's Flush takes a stale re-read as a Conflict, as Update's lock
// does; a deferred literal's write spans the re-Get, which becomes the
// patcher's Fetch, advdefer_test.go), v reassigned in a closure, swapped, copied and the copy
// written, overwritten through a pointer, re-read in a loop, restored
// from a copy.
func TestAdvValue2(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advvalue2="}), "example.com/op/controllers/advvalue2")
}

// Review of the sub-reconciler move (migratehelperedit.go): a literal
// built with another client, called twice, given &v, re-reading the
// object itself, built with a local client reassigned, holding the
// object in a field.
func TestAdvSubrec(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advsubrec="}), "example.com/op/controllers/advsubrec")
}

func TestAdvLoop(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advloop="}), "example.com/op/controllers/advloop")
}

func TestAdvSubrec2(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advsubrec2="}), "example.com/op/controllers/advsubrec2")
}

func TestAdvBase(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advbase="}), "example.com/op/controllers/advbase")
}
