package lint_test

import (
	"go/token"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A fresh kubebuilder v4.15.0 project's Reconcile as the deploy-image
// tutorial writes it (s114's newcomer): a status Update and the re-Get
// after it, a finalizer, a deferred closure writing a failure condition
// on a named error return, and a phase written with a merge patch. At
// 8b11e63b -fix panicked (reuseRoot asked of a write with no re-read,
// for a deferred literal's reason it then did not use), on the first
// run of the adopt block. All three writes move: the defer flushes the
// patcher of the read, re-fetched after the first Flush; the patch
// flushes one made at its base (tutorialdefer.go.golden).
func TestTutorialDefer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/tutorialdefer")
}

// A panic while -fix plans one write keeps that write, reported with the
// fault and where it was raised (the merge patch keeps its lock fix), and leaves the run's other findings and
// fixes standing: at 45a03639 it ended the whole run (exit 2, nothing
// written, no finding), as TestTutorialDefer's panic did.
func TestFixPlanPanicKeepsTheWrite(t *testing.T) {
	lint.PlanFailing(t, func(p token.Position) bool { return p.Line == 85 })
	results := analysistest.Run(&discard{t}, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/tutorialdefer")
	kept, fixed := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			switch {
			case line == 85:
				kept++
				const want = "(not moved to the patcher: -fix failed while planning this write (planned to fail, at lint.PlanFailing.func1, export_test.go:"
				if moves(d) || !strings.Contains(d.Message, want) {
					t.Errorf("line 85: %q, fixes %v; want no move and a message with %q", d.Message, d.SuggestedFixes, want)
				}
			case moves(d):
				fixed++
			}
		}
	}
	if kept != 1 || fixed != 2 {
		t.Errorf("%d findings at line 85, %d others fixed; want 1 and 2", kept, fixed)
	}
}

// moves reports whether d's fix moves its write onto a patcher.
func moves(d analysis.Diagnostic) bool {
	return len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write")
}
