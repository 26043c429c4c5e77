package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper T's project A: the object handed as an owner to
// SetControllerReference and IsControlledBy, which only read it, leaves
// a merge patch's later base what the patcher holds, its decision in
// Retry (life.go's callEvent). At ae27bc6 a plain Flush here; in
// project A a second patcher made at the base, and the first one's
// later Flush refused as a conflict in one reconcile (make test).
func TestAdvOwnerRead(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advownerread")
}
