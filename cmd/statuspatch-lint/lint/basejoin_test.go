package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A merge patch's base taken after the object's own write outside its
// status (a finalizer added and saved with Update or a merge patch, or
// added in an if's condition whose body saves it) is
// the read's: its writes share the read's patcher, so a deferred failure
// write after the patch's Retry flushes the patcher that stored it, not
// an older one that would meet that store as another writer's (a 409,
// the failure condition lost). A status change before that write, or a
// finalizer change no later write of the block saves, keeps the base a
// patcher of its own (basejoin.go.golden).
func TestBaseJoin(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/basejoin")
}
