package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A List is known by its type (migratelisttype, issue 80): a real
// List's item written in place stays "an item of a list, a cached copy",
// as before; an element of a user's struct with an Items field is named
// as the slice's, a copy the model cannot show fresh, not the cache's
// (at 2babbc07 both were "an item of a list, a cached copy"). What the
// user's slice holds is still no base the model shows fresh: its write
// moves into Retry, never onto a plain Flush.
func TestMigrateListType(t *testing.T) {
	retried := 0
	for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migratelisttype") {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "wPatcher.Retry(ctx, func(") {
						retried++
					}
				}
			}
		}
	}
	if retried != 1 {
		t.Errorf("%d writes moved into Retry, want 1", retried)
	}
}
