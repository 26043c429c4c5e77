package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// An object an event holds (migrateevent): spark-operator's
// EventFilter.Update writes e.ObjectNew's status; kept at s92c for "no
// Get", with advice to Flush the informer's copy. It is a cached copy, as
// a List item is: made with Fetch, its decision moves into Retry when it
// can run again (an error-returning handler's `return nil` exits), and a
// predicate whose exits give its bool keeps it, naming the line. A
// parameter of a function no code of the module calls (a map function
// handed to handler.EnqueueRequestsFromMapFunc, a function literal given
// to it) is the same: what the library gives it; its reason names that
// call, not the callers there are none of.
func TestMigrateEvent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateevent="}),
		"example.com/op/controllers/migrateevent")
}
