package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A helper that takes its own base of the object its caller hands it
// (migratelifehelper, the newcomer scaffold's markObserved): when a
// caller holds a patcher of the object (one its own writes' move makes,
// or the code's), the helper takes that patcher, its base gone, never a
// second one made from the parameter. At 3e67ca46 both moved in place:
// markObserved and markSized each made orderPatcher from their
// parameter, alive beside the caller's. A caller that calls it with a
// status change unsent keeps it (a Flush would send that change, the
// helper's patch did not), naming the lines; with no caller holding a
// patcher, the helper's own is the life's only one and it moves in place.
func TestMigrateHelperOwnBase(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migratelifehelper="}), "example.com/op/controllers/migratelifehelper")
	taken, inPlace := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.Contains(f.Message, "takes the patcher its callers make") && strings.HasSuffix(f.Message, "its own base goes)") {
					taken++
				}
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "NewWidgetStatusPatcher(r, order)") && r.Pass.Fset.Position(e.Pos).Line > 100 {
						inPlace++ // markAlone's own patcher
					}
				}
			}
		}
	}
	if taken != 2 || inPlace != 1 {
		t.Errorf("%d helpers take their callers' patcher, %d moves in place; want 2, 1", taken, inPlace)
	}
}

// A second -fix run over the first one's output changes nothing and keeps
// markLate, naming the same lines.
func TestMigrateHelperOwnBaseTwice(t *testing.T) {
	kept := fixTwice(t, "example.com/op/controllers/migratelifehelper", "helper.go")
	if len(kept) != 1 || !strings.Contains(kept[0], "its caller at line 86 calls it after order may change at line 85") {
		t.Errorf("the second run keeps %d writes, want markLate's naming lines 86 and 85:\n%s", len(kept), strings.Join(kept, "\n"))
	}
}
