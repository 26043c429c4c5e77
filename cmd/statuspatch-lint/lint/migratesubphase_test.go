package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (-fix, step a of the cluster-api scope): a sub-reconciler that
// writes its object more than once (reconcileNormal's phase switch with
// early returns, reconcileDelete's two writes in a row, a loop, writes
// naming an alias m := w) takes the patcher its callers make after their
// Get, each write a Flush of it; a caller that writes the object too
// passes its own patcher. At f37c80a each stayed: "reconcileNormal writes
// it more than once". One whose spec changes between its writes (through
// the alias too), whose caller has no Get, or with a write of another
// shape stays whole, each write naming why. A helper whose caller's base
// is not a copy of the object names what that base is and where.
func TestMigrateSubPhases(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratesubphase="}), "example.com/op/controllers/migratesubphase")
	moved, several := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher (") && strings.Contains(f.Message, "takes the patcher its callers make") {
					moved++
					if strings.Contains(f.Message, "then Flush at each of its") {
						several++
					}
				}
			}
		}
	}
	if moved != 9 || several != 8 {
		t.Errorf("%d writes of sub-reconcilers moved (%d of helpers writing more than once), want 9 (8)", moved, several)
	}
}
