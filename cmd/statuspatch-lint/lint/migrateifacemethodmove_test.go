package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's status Manager, moved: a method over an interface of the
// module whose callers are all in its package takes the generated
// package's StatusPatcher in place of its object (a method cannot take
// the type parameter the generic helper's move gives a function), its
// write Flush, a merge patch's base it took itself gone; each caller
// passes its kind's patcher's StatusPatcher(), made after its Get with
// the client the method wrote with (sm.Client) or, when its receiver is
// no variable, the one that read the object. Before, each write stayed
// with the move by hand in its reason.
func TestMigrateIfaceMethodMove(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateifacemethodmove="}), "example.com/op/controllers/migrateifacemethodmove")
}
