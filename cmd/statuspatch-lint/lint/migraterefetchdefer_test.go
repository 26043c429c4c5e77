package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A re-Get of an object given to a defer (or go) statement registered
// before it stays a Get, the write kept or moved onto a patcher made after
// the re-read, naming the statement: its argument holds the object the
// variable pointed to then, which the Get fills in place, where a Fetch's
// `order = p.Object()` would leave the deferred call the object as first
// read. Before, both re-reads became Fetches. A deferred function literal
// reads the variable when it runs: that re-read still becomes the Fetch.
func TestMigrateRefetchDeferArg(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/migraterefetchdefer")
}
