package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Issue 80, left open at s103 (migrateguardreturn): a guard whose body
// ends in `return r.Status().Update(ctx, obj)` (or a result beside it)
// is a guard as one ending in the write's statement: the if stays around
// the Retry and mutate checks it again. Before, it was a Flush: the
// decision, made from the status, was not made again on a conflict. A
// guard with an init, or whose return reads the object beside the write,
// stays a Flush.
func TestMigrateGuardReturn(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateguardreturn")
	const retry, flush = "(NewWidgetStatusPatcher, the decision in Retry)", "(NewWidgetStatusPatcher, then Flush)"
	want := map[int]string{28: retry, 41: retry, 56: flush, 71: flush}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case len(d.SuggestedFixes) != 1 || d.SuggestedFixes[0].Message != "move the status write onto WidgetStatusPatcher "+w:
				t.Errorf("line %d: fixes %v, want one: %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}

// An early "nothing to do" return whose values are the write's success
// path's is mutate's return nil: the decision moves into Retry (lines 34,
// 50, 63); a return with other values, or a variable's, keeps it before
// Flush (migrateguarddone; helper U3's project E, s106).
func TestMigrateGuardDone(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateguarddone")
	const retry, flush = "(NewWidgetStatusPatcher, the decision in Retry)", "(NewWidgetStatusPatcher, then Flush)"
	want := map[int]string{34: retry, 50: retry, 63: retry, 80: flush, 97: flush}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case len(d.SuggestedFixes) != 1 || !strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher "+w):
				t.Errorf("line %d: fixes %v, want one: %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
