package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (U2's project D): a generic reconciler TYPE's method that
// reads its object of the type's parameter, takes its base with
// DeepCopyObject().(T) and patches the status was kept as "an object of
// unknown kind", with no line or fact, while the same body as a generic
// function moved onto patchers.ForType. Its write moves as the
// function's does when every instantiation of the type in the package is
// of a kind with a generated patcher; else it stays, naming the
// instantiation's line and kind (or the hook that decides from the
// status, or the type exported).
func TestMigrateGenericType(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrategenerictype="}), "example.com/op/controllers/migrategenerictype")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto the generated patchers (rec.Reconcile makes its object's patcher with patchers.ForType") {
					moved++
				}
			}
		}
	}
	if moved != 1 {
		t.Errorf("%d generic types' writes moved onto patchers.ForType, want 1", moved)
	}
}
