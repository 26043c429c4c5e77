package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (style review step 1): recover() keeps a statement out of
// Retry's function, as a defer, a go statement or a label does, for
// every decision (migrateretry.go's stopWhy, the one notion). Before,
// only a deferred literal's moved lines checked it (helper D's
// recoverCall): a function the reconcile defers itself had its
// recover() moved into Retry's mutate, where it stops no panic.
func TestAdvRecovered(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/recovered")
}
