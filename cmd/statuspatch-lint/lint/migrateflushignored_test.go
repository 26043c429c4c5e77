package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A write whose error is ignored renews nothing (issue 80, item 2 of
// s102's review, lifestored.go): a failed Flush or Update leaves the
// object as the code changed it, so a decision after `_ = p.Flush(ctx)`
// moved into Retry would be refused as pending where the handwritten
// write sent both changes. It stays before a Flush; after a write whose
// error is returned it moves. Before, 3 of these 7 became Retries.
func TestMigrateFlushIgnored(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateflushignored")
	const kept = "check lines %d-%d, left outside Retry (a conflict waits for the next reconcile): the write at line %d does not return its error: when it fails the code goes on with order's change unsent, which Retry would refuse as pending"
	want := map[int]string{
		30: "(a Flush of p, the patcher made at line 24); " + fmt.Sprintf(kept, 27, 29, 26),
		48: "(the decision in Retry of p, the patcher made at line 40)",
		65: "(a Flush of p, the patcher made at line 57); " + fmt.Sprintf(kept, 62, 64, 59),
		76: "(NewWidgetStatusPatcher, then Flush)",
		80: "(NewWidgetStatusPatcher, then Flush); " + fmt.Sprintf(kept, 77, 79, 76),
		91: "(NewWidgetStatusPatcher, then Flush)",
		97: "(NewWidgetStatusPatcher, the decision in Retry)",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			if len(d.SuggestedFixes) != 1 || !strings.Contains(d.SuggestedFixes[0].Message, want[line]) {
				t.Errorf("line %d: fixes %v, want one saying %q", line, d.SuggestedFixes, want[line])
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
