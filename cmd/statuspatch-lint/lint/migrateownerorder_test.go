package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (F2 of s95, a review of 95a2bdb's field owners): a caller's
// own write moved onto a patcher made at its read while a call between
// handed the object to a helper whose status write stays (kept for its
// field owner, helperFirst; for its spec change, specFirst): that write
// moves the status after the patcher's base, and the Flush conflicts on
// every reconcile where it changes it. And a helper's field owner from a
// package variable another function sets (fromVar) went to the caller's
// patcher, made before that set: another owner than the write sent. At
// ffc815e all three moved (helperFirst's and specFirst's Update onto a
// Flush, markVar onto the caller's patcher WithFieldOwner(ownerVar)); now
// they stay, naming the call or the set. Two helpers with different
// owners in the other order, an owner by path, and one helper shared by a
// caller writing with its owner and a caller alone move as before. A kept
// helper called after the write in a loop around it (loopAfter), or after
// a deferred write (deferLIFO, by a later defer), runs before a write too:
// at 050ae56 both moved (R3 of s95); now they stay.
func TestMigrateOwnerOrder(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateownerorder="}), "example.com/op/controllers/migrateownerorder")
	moved, between, setVar := 0, 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto") {
					moved++
				}
			}
			if strings.Contains(d.Message, "(not moved to the patcher: w is handed to") {
				between++
			}
			if strings.Contains(d.Message, "uses the package variable ownerVar, set at line") {
				setVar++
			}
		}
	}
	if moved != 3 || between != 4 || setVar != 1 {
		t.Errorf("%d writes moved, %d kept after a kept helper's write, %d for a package variable set, want 3, 4 and 1", moved, between, setVar)
	}
}
