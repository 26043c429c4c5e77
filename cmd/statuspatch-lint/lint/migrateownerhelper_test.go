package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (C1 of s95): a helper writing with client.FieldOwner takes
// the patcher its callers make, which they make with
// patcher.WithFieldOwner and the same owner (a literal, a constant of
// the package, a typed client.FieldOwner as string(...)): through one
// helper, a helper writing twice, sub-reconcilers on exclusive paths, a
// scope's field, a caller writing with that owner too. At 676a4e9 each
// stayed ("-fix does not carry [the field owner] to the patchers of the
// helper's callers"), and a helper writing without an owner took the
// patcher of a caller writing with one, its write's owner changed. Now a
// write whose patcher would send another owner stays, naming the other
// write's line: the caller's own write, another helper's given the same
// patcher; as does an owner the callers cannot name (a receiver's field,
// a name shadowed in the caller) or an exported helper's.
func TestMigrateHelperOwner(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateownerhelper="}), "example.com/op/controllers/migrateownerhelper")
	moved, owned := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if !strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher (") {
					continue
				}
				moved++
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "NewWidgetStatusPatcher(") && strings.Contains(string(e.NewText), "patcher.WithFieldOwner(") {
						owned++
						break
					}
				}
			}
		}
	}
	if moved != 12 || owned != 10 {
		t.Errorf("%d writes moved (%d onto a patcher made with a field owner), want 12 (10)", moved, owned)
	}
}
