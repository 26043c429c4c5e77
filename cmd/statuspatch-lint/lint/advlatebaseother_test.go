package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A base taken after a helper of another package changed the status
// (s112): its ParamsFact's StatusOnly (a status write in its body or a
// callee is refused there) makes the call a change for both sides: the
// patch "sends nothing", and -fix makes the patcher at the read
// (otherChange). A helper of another package that writes the status it
// changed (MarkAndSave through Save), or a function of the package whose
// write is another package's, makes no late base: their writes stay
// named, only locked (otherWriter, localWriter). The migrated package is
// advlatebaseother.go.golden.
func TestAdvLateBaseOther(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advlatebaseother")
	want := map[int]string{
		30: "(an empty patch, which wrote none of them)",
		44: "add client.MergeFromWithOptimisticLock to the status patch; the write stays a finding",
		65: "add client.MergeFromWithOptimisticLock to the status patch; the write stays a finding",
		80: "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush)",
	}
	got := map[int]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				got[r.Pass.Fset.Position(d.Pos).Line] = f.Message
			}
		}
	}
	for line, w := range want {
		if !strings.Contains(got[line], w) {
			t.Errorf("line %d: fix %q, want it to say %q", line, got[line], w)
		}
	}
	for _, line := range []int{80} { // readers: no late base
		if strings.Contains(got[line], "its base was taken") {
			t.Errorf("line %d: fix %q calls a reader's call a status change", line, got[line])
		}
	}
	if len(got) != len(want) {
		t.Errorf("fixes at lines %v, want %d", got, len(want))
	}
}
