package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (U2's project D): a generic reconciler TYPE's method that
// reads its object of the type's parameter and writes it with Update in
// a literal deferred after the read was kept as "an object of unknown
// kind", with no line or fact. Its patcher is made with patchers.ForType
// after the read and the deferred write becomes its Flush, the named
// error result and NotFound handled as before, when every instantiation
// is of a kind with a generated patcher and no value the package sets a
// hook to decides from the status; else it stays, naming the line.
func TestMigrateGenericTypeDefer(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrategenerictypedefer="}), "example.com/op/controllers/migrategenerictypedefer")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.Contains(f.Message, "makes its object's patcher with patchers.ForType") {
					moved++
				}
			}
		}
	}
	if moved != 2 {
		t.Errorf("%d generic types' Updates moved onto patchers.ForType, want 2", moved)
	}
}
