package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's B3 (migrategeneric): a status write in a helper over
// objects of any kind (patchStatus[T client.Object](ctx, c, obj, base T),
// or one taking client.Object) moves onto the generic patcher its callers
// make with their kind's generated constructor where they took the base
// (or read the object, for an Update). At c04149b the merge patch only
// got the lock (a new way to 409 on a cached base) and the Update was
// left, both still reported by the linter after -fix. A caller whose
// status changes only on a branch that returns before the base is no
// late base (patchAfterBranch: kept at cf96f03, naming that branch).
func TestMigrateGeneric(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrategeneric="}), "example.com/op/controllers/migrategeneric")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto the generated patchers") {
					moved++
				}
			}
		}
	}
	if moved != 7 {
		t.Errorf("%d helpers moved onto the generated patchers, want 7", moved)
	}
}
