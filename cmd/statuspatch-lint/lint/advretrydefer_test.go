package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper D's R4 (migrateretrydefer.go): a deferred write whose
// status is decided from the status read before it stays, naming the
// read and a call of a variable outside the function (tokens.Add) a
// retried decision would repeat; at dcca245 it became a Flush in the
// defer over the cached read, which a manager refused (a second token
// from the next reconcile). A decision from the spec alone still moves.
func TestAdvRetryDefer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advretrydefer")
}
