package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A decision with an error exit (migrateretryerr.go, issue 80): where the
// write's error is returned as the exit's is, the exit is mutate's
// `return err` and the decision moves into Retry (3 writes; at adaadbc9
// each was a Flush with its decision before it, and no word). A write
// whose decision reads the status and cannot move is a Flush whose fix
// message names the decision's lines and what keeps it out.
func TestAdvRetryErr(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advretryerr")
	notes := map[int]string{
		97:  "; check lines 92-96, left outside Retry (a conflict waits for the next reconcile): w's status is read at line 92, then the return at line 94 gives this function's result (ctrl.Result{Requeue: true}, nil) with no error, which mutate's return cannot",
		113: "; check lines 109-112, left outside Retry (a conflict waits for the next reconcile): the return at line 110 gives this function's result (ctrl.Result{}, err), and the write's error is returned changed (ctrl.Result{}, fmt.Errorf(\"status: %w\", err) at line 114), which mutate's return cannot give both",
		129: "; check lines 125-128, left outside Retry (a conflict waits for the next reconcile): the return at line 126 gives this function's result (w.Status.Size, nil) with no error, which mutate's return cannot",
		141: "; check lines 138-140, left outside Retry (a conflict waits for the next reconcile): w's status is read at line 138, then the defer at line 139 would run when Retry's function returns, on each attempt, not when this function does",
		154: "(NewWidgetStatusPatcher, then Flush)", // a decision from the spec: no note
	}
	retried := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			if len(d.SuggestedFixes) != 1 {
				t.Errorf("line %d: %d fixes, want 1", line, len(d.SuggestedFixes))
				continue
			}
			msg := d.SuggestedFixes[0].Message
			if strings.Contains(msg, "the decision in Retry") {
				retried++
			}
			want, ok := notes[line]
			switch {
			case ok && !strings.HasSuffix(msg, want):
				t.Errorf("line %d: fix message\n%s\nwant it to end in\n%s", line, msg, want)
			case !ok && strings.Contains(msg, "left outside Retry"):
				t.Errorf("line %d: fix message %s, want no note", line, msg)
			}
			delete(notes, line)
		}
	}
	if retried != 3 {
		t.Errorf("%d writes moved into Retry, want 3", retried)
	}
	for line := range notes {
		t.Errorf("line %d: no finding", line)
	}
}
