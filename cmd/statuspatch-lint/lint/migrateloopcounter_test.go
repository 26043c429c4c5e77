package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's retryonconflict-counter-not-once (migrateloopcounter): a
// conflict loop's decision that hands out a value from outside it
// (tokens.Add(1), nextID()) ran it again on each attempt under
// retry.RetryOnConflict; Retry's mutate does the same, so it moves
// unchanged (no sync.OnceValue, which is for a decision that ran once
// before its write), and the fix's note names each such call and says
// it runs on each attempt, as in the loop. At d6546153 the note said
// nothing, and the raw call read as one -fix forgot to make once.
func TestMigrateLoopCounter(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateloopcounter")
	var notes []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if _, note, ok := strings.Cut(f.Message, "(FetchWidgetStatusPatcher, the loop's decision in Retry)"); ok {
					notes = append(notes, note)
				}
			}
		}
	}
	want := []string{
		"; tokens.Add at line 40 runs on each attempt, as in the loop",
		"; nextID at line 55 runs on each attempt, as in the loop",
		"",
	}
	if strings.Join(notes, "|") != strings.Join(want, "|") {
		t.Errorf("the loops' notes:\n%q\nwant\n%q", notes, want)
	}
}
