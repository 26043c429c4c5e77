package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// -fix moves a lock base taken once and reused (by two patches, or
// handed with the object to a flush helper) with its object: one patcher
// made where the base is taken (migratelockbase.go.golden); a patch also
// used otherwise stays, and the finding says where.
func TestMigrateLockBase(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratelockbase="}),
		"example.com/op/controllers/migratelockbase")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
				moved++
			}
		}
	}
	if moved != 8 {
		t.Errorf("%d writes moved onto a patcher, want 8", moved)
	}
}
