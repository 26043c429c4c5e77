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
// the client the method writes through, m.Client on the call's receiver
// (a literal's Client: r.Client; a parameter's: sm.Client). Before, each
// write stayed with the move by hand in its reason. It stays, naming the
// line, when called through an interface, when a caller is handed its
// object, or builds its receiver with a call (its client not seen), or,
// for a merge patch of the method's own base, changed the object before
// the call (the patch did not send that; Flush would).
func TestMigrateIfaceMethodMove(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateifacemethodmove="}), "example.com/op/controllers/migrateifacemethodmove")
}
