package lint_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// s102's second review (R2) of TestMigrateRetryFail's rule: a status read
// after a failed write hidden in the error check's condition, in its
// else, after a goto (or break, continue) out of a branch that ends in a
// return, or in the same return as the write, keeps the decision before a
// Flush, named; so does a Flush whose error branch jumps on (its change
// unsent). A guard whose condition calls a function that changes its
// receiver stays out of Retry (it would run once more outside it), and
// the Flush's note names the call (the code's patcher or -fix's own). An
// event on the error path, which reads only metadata, and a deferred read
// (on the object as the patcher last read it) do not keep it.
func TestMigrateRetryFailAdversary(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateretryfailadv")
	const kept = "left outside Retry (a conflict waits for the next reconcile): line %d reads order's status when the write fails"
	flush := func(made, from, to, read int) string {
		return fmt.Sprintf("(a Flush of p, the patcher made at line %d); check lines %d-%d, "+kept, made, from, to, read)
	}
	want := map[int]string{
		31:  flush(27, 28, 30, 32),                                        // the error branch's else
		51:  flush(47, 48, 50, 51),                                        // the error check's condition
		68:  flush(64, 65, 67, 77),                                        // a goto out of the error branch
		92:  "(the decision in Retry of p, the patcher made at line 87)",  // a deferred read
		109: "(the decision in Retry of p, the patcher made at line 105)", // an event on the error path
		127: flush(123, 124, 126, 128),
		146: "(a Flush of p, the patcher made at line 140); check lines 144-145, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 144 calls r.next (next sets r.n at line 153): kept around Retry and checked again in its function, it would run once more on every call", // a guard calling r.next
		166: flush(161, 162, 165, 166),                                                                                                                                                                                                                                                                                // the same return
		181: "",                                                                                                                                                                                                                                                                                                       // kept: &order stored in r.last
		198: "(a Flush of p, the patcher made at line 192)",
		222: "(a Flush of p, the patcher made at line 209); check lines 217-221, left outside Retry (a conflict waits for the next reconcile): the write at line 211 does not return its error: when it fails the code goes on with order's change unsent",
		233: "; check lines 231-232, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 231 calls r.next (next sets r.n at line 153): kept around Retry and checked again in its function, it would run once more on every call", // the same, -fix's own patcher
		// clock.go: a guard reading the clock stays before Flush; a
		// decision stamping the time moves
		1021: "; check lines 19-20, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 19 calls time.Since, which reads the clock: checked again in Retry's function it may answer otherwise, and the decision made before would not be made",
		1038: "(NewWidgetStatusPatcher, the decision in Retry)",
		1051: "; check lines 49-50, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 49 receives from gate at line 49: Retry's function may run more than once, and each run would do it again (a second value consumed, or a block)", // a receive in the guard (reviewer R, s106)
		// clockdeep.go: a guard reading the clock one call deeper, or a
		// value other goroutines change (an atomic load), stays before
		// Flush, the chain named, as does one calling a function of
		// another package of the module (unseen); one calling a pure
		// function of the package moves, as does a decision stamping an
		// atomic load
		2039: "; check lines 37-38, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 37 calls r.inGrace, which calls elapsed at line 20, which calls time.Since at line 22, which reads the clock: checked again in Retry's function it may answer otherwise, and the decision made before would not be made",
		2055: "; check lines 53-54, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 53 calls inflight.Load, which reads a value other goroutines change: checked again in Retry's function it may answer otherwise, and the decision made before would not be made",
		2070: "; check lines 68-69, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 68 calls underCap, which calls atomic.LoadInt64 at line 25, which reads a value other goroutines change: checked again in Retry's function it may answer otherwise",
		2086: "(NewWidgetStatusPatcher, the decision in Retry)",
		2103: "(NewWidgetStatusPatcher, the decision in Retry)",
		2115: "; check lines 113-114, left outside Retry (a conflict waits for the next reconcile): the guard's condition at line 113 calls clockutil.Fresh, which is of example.com/op/clockutil, whose body is not seen here, and may read the clock or a value other goroutines change: checked again in Retry's function it may answer otherwise",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			pos := r.Pass.Fset.Position(d.Pos)
			line := pos.Line
			switch filepath.Base(pos.Filename) {
			case "clock.go":
				line += 1000 // clock.go's lines, apart from adv.go's
			case "clockdeep.go":
				line += 2000
			}
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case w == "" && len(d.SuggestedFixes) != 0:
				t.Errorf("line %d: fixed (%v), want kept", line, d.SuggestedFixes)
			case w != "" && (len(d.SuggestedFixes) != 1 || !strings.Contains(d.SuggestedFixes[0].Message, w)):
				t.Errorf("line %d: fixes %v, want one saying %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
