package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's status.Manager (project D): a method over an interface of
// the module (MarkProgressing(ctx, obj Conditioned, ...), a merge patch;
// MarkDegraded, an Update), exported: -fix moves such a method onto the
// package's StatusPatcher only with its callers in its own package
// (TestMigrateIfaceMethodMove). At dc177ff8 both were kept with no
// reason; each names the method's line, the fact, and the move by hand
// onto the generated package's StatusPatcher
// (<Kind>StatusPatcher.StatusPatcher(), patchers.For). The merge patch
// still gets the lock; a method over client.Object and a function over
// the interface keep what they said.
func TestMigrateIfaceMethod(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateifacemethod")
}
