package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// The object put in a struct of a concrete type handed to a method of the
// package (migrateheldstruct): lws's ensureNewLWSExists gives
// disaggregatedsetutils.CreateParams{DisaggregatedSet: ds, ...} to
// LeaderWorkerSetManager.Create, which only reads it; kept at s92c
// ("ds is passed on or aliased"). Followed into the callee, each use of
// the holder's field is the object's: a callee that only reads it moves
// the write; one that changes its spec there, keeps the holder or a
// function value keeps it, naming the line.
func TestMigrateHeldStruct(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateheldstruct="}),
		"example.com/op/controllers/migrateheldstruct", "example.com/op/holdutil")
}
