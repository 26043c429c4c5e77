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

// Issue 80 item 2 (T's project B's Ship, helper D at s103): a deferred
// write whose literal changes the object, and a decision from the status
// in the body on some paths. The decision becomes a Retry at its place
// (an early return's path does not run it), the literal's changes the
// deferred write's Retry; a recover(), a guard, the named error set, a
// second defer changing the object, a call to the cluster, a goto and no
// error result keep it, each naming its line. At f276c389 every one was
// kept ("the deferred literal uses w before its write", "the statement
// at line N may return or jump").
func TestAdvDeferPlaced(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advdeferplaced")
}
