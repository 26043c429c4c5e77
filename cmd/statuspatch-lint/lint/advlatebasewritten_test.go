package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper T's gap 4 (migratemerge.go's statusChangedBetween):
// a base taken after an Update and a re-Get of the object given by
// address is no late base; at ae27bc6 the fix said "an empty patch,
// which wrote none of them" of a patch sending the change made after
// it. A base taken right after the change still is, and says so.
func TestAdvLateBaseWritten(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advlatebasewritten")
	late := map[int]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.Contains(f.Message, "its base was taken after the status changes") {
					late[r.Pass.Fset.Position(d.Pos).Line] = true
				}
			}
		}
	}
	if len(late) != 1 || !late[56] {
		t.Errorf("fixes saying the base is late, by line: %v; want line 56 alone", late)
	}
}
