package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Issue 80's effects table (migrateeffects.go): a channel receive (in a
// select, a range too) or a send in a decision, or a mutex's half whose
// other half is outside it, keeps the decision before Flush, the note
// naming the line and the effect; a channel the decision makes, a
// receive at the head (left before the Retry) and a paired Lock and
// Unlock move; a file read and a call of the network without a context
// are made once (sync.OnceValues), as is a call that receives two calls
// deep, and a receive from a channel of struct{} (a signal: a
// context's Done, a stop channel) runs again. A guarded
// decision that sets what outlives it or a name used after the write
// says why it stays (it said nothing).
func TestAdvOnceEffects(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advoncefx")
	const again = ": Retry's function may run more than once, and each run would do it again"
	want := map[int]string{
		32:  "; check lines 29-31, left outside Retry (a conflict waits for the next reconcile): it receives from tokens at line 30" + again + " (a second value consumed, or a block)",
		48:  "left outside Retry (a conflict waits for the next reconcile): it receives from tokens at line 43" + again,
		63:  "left outside Retry (a conflict waits for the next reconcile): it ranges over the channel tokens at line 58" + again + " (more values consumed, or a block)",
		77:  "(NewWidgetStatusPatcher, the decision in Retry)",
		91:  "(NewWidgetStatusPatcher, the decision in Retry)",
		107: "; check lines 103-106, left outside Retry (a conflict waits for the next reconcile): it calls mu.Unlock at line 106, whose other half (Lock, Unlock) is outside it" + again + " (a second Lock blocks for good, a second Unlock panics)",
		121: "(NewWidgetStatusPatcher, the decision in Retry)",
		136: "(NewWidgetStatusPatcher, the decision in Retry)",
		151: "(NewWidgetStatusPatcher, the decision in Retry)",
		165: "; check lines 161-164, left outside Retry (a conflict waits for the next reconcile): it sets moved at line 163, declared outside it",
		182: "; check lines 179-181, left outside Retry (a conflict waits for the next reconcile): it sets msg, used after the write, under the condition at line 179",
		197: "; check lines 195-196, left outside Retry (a conflict waits for the next reconcile): it receives from tokens at line 196" + again,
		214: "; check lines 210-213, left outside Retry (a conflict waits for the next reconcile): it sends on tokens at line 211" + again + " (a second value sent, or a block)",
		230: "(NewWidgetStatusPatcher, the decision in Retry)",
		247: "(NewWidgetStatusPatcher, the decision in Retry)", // a context's Done, a channel of struct{}
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case len(d.SuggestedFixes) != 1 || !strings.Contains(d.SuggestedFixes[0].Message, w):
				t.Errorf("line %d: fixes %v, want one saying %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line, w := range want {
		t.Errorf("line %d: no finding, want %q", line, w)
	}
}
