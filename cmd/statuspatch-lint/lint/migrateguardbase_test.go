package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Issue 80, helper U4 (s107): an early "nothing to do" return before a
// merge patch's base moves into Retry as it does before an Update (F3),
// the base gone; a count kept in a loop over a List (var n; n++) moves
// with the guard, the List before the Retry (E1). Where a decision
// stays before Flush, the note names what keeps it: a return other than
// the success path's, a status read before the List, never nothing.
// At faa5cbbb lines 43 and 64 were silent Flushes, 88 and 168 Flushes
// blaming the List's context, 106 silent, 123 naming the List but not
// the read before it (145 is unchanged).
func TestMigrateGuardBase(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateguardbase")
	const retry, flush = "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, the decision in Retry)", "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush); "
	want := map[int]string{
		43:  retry,
		64:  retry,
		88:  retry,
		106: flush + "check lines 101-105, left outside Retry (a conflict waits for the next reconcile): the return at line 102 gives this function's result (ctrl.Result{Requeue: true}, nil)",
		123: flush + "check lines 117-122, left outside Retry (a conflict waits for the next reconcile): w's status is read at line 117, then the call at line 119 takes a context",
		145: flush + "check lines 133-144, left outside Retry (a conflict waits for the next reconcile): the return at line 142 gives this function's result (n, nil)",
		168: flush + "check lines 159-167, left outside Retry (a conflict waits for the next reconcile): n is used at line 169 on the write's error path",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case len(d.SuggestedFixes) != 1 || !strings.HasPrefix(d.SuggestedFixes[0].Message, w):
				t.Errorf("line %d: fixes %v, want one starting %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
