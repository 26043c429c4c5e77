package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A decision beside a patcher the code made (issue 80,
// migrateexistingretry): the write becomes that patcher's Retry, its
// decision mutate's body, where the classifier -fix's own patcher goes by
// says it may run again: counts and a condition decided from the status,
// the patcher used after the write (its Object(), another Flush), made
// by Fetch and by Fetch...Into, two writes in one life (the second's
// decision after the first write), a deferred Flush of it, a write
// under an if whose condition reads the status (the if moves whole, as
// it now does for -fix's own patcher too), and the newcomer scaffold's
// markReady (its count made once). Until s101R each
// was a Flush, the fix saying "-fix does not move a decision into the
// Retry of a patcher the code made; move it into p.Retry by hand": under
// a manager a refused Flush returned the 409 and the next reconcile
// decided again. Where the decision may not move it is still a Flush,
// the fix naming the line and the fact: a call to the cluster, the
// patcher used by a goroutine, in a function literal, or handed on
// before the write. A decision's own loop, its continue and break inside
// the moved lines, moves whole (loops.go; until s104 "the continue at
// line N skips more than the write").
func TestMigrateExistingRetry(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateexistingretry="}), "example.com/op/controllers/migrateexistingretry")
	var retried, flushed, own int
	var notes []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				switch {
				case strings.Contains(f.Message, "does not move a decision"):
					t.Errorf("%s: the blanket reason is back: %s", r.Pass.Fset.Position(d.Pos), f.Message)
				case strings.Contains(f.Message, "(the decision in Retry of p, the patcher made at line"):
					retried++
				case strings.Contains(f.Message, "(NewWidgetStatusPatcher, the decision in Retry)"):
					own++
				case strings.Contains(f.Message, "(a Flush of p, the patcher made at line"):
					flushed++
					if _, note, ok := strings.Cut(f.Message, "left outside Retry (a conflict waits for the next reconcile): "); ok {
						notes = append(notes, note)
					}
				}
			}
		}
	}
	if retried != 11 || flushed != 5 || own != 3 {
		t.Errorf("%d writes became p's Retry, %d its Flush, %d the Retry of a patcher -fix made; want 11, 5, 3", retried, flushed, own)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"the call at line 26 takes a context (a call to the cluster, which a retry would repeat)",
		"p is used by the go statement at line 41, which may run while Retry reads order again and decides",
		"p is used in the function literal at line 56, which may run before this write",
		"p is handed on or used at line 71, between its making at line 70 and this write",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no kept decision says %q; the notes:\n%s", want, all)
		}
	}
	if len(notes) != 4 {
		t.Errorf("%d Flushes name a decision left before them, want 4:\n%s", len(notes), all)
	}
}
