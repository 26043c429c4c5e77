package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's hand conflict loop (migratehandloop, u's project C's
// DatabaseReconciler): a for that reads the object again with Get,
// decides, writes its status and leaves unless the write's error is a
// conflict. At dc177ff8 -fix made the Get a second patcher's Fetch in
// the loop, its write that patcher's Retry (a retry inside a retry, two
// patchers alive for one object, db = dbPatcher2.Object()). Now the loop
// is the Retry of the patcher the object's life already has, or of a
// Fetch...Into of the object when it has none; the loop's bound is
// Retry's, and the fix's note says so.
func TestMigrateHandLoop(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migratehandloop")
	var notes []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if _, note, ok := strings.Cut(f.Message, "the hand conflict loop's decision in Retry"); ok {
					notes = append(notes, note)
				}
			}
		}
	}
	want := []string{
		" of wPatcher; the loop's bound of 3 attempts is replaced by Retry's (patcher.DefaultBackoff); shards.Add at line 50 is made once (sync.OnceValue))",
		" of wPatcher, FetchWidgetStatusPatcherInto; the unbounded loop's attempts are Retry's (patcher.DefaultBackoff))",
		" of wPatcher, FetchWidgetStatusPatcherInto; the loop's bound of 5 attempts is replaced by Retry's (patcher.DefaultBackoff))",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("the hand loops' notes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}
