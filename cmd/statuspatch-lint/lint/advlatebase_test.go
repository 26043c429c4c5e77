package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A base taken after the status changes (s111's adversary): a change by
// a function of the package or a method of the kind that changes at
// most the status counts as one (helperChange, methodChange:
// the finding says the patch sends nothing, and -fix makes the patcher
// at the read); a patch that sends a change made after its base is not
// called empty (branchChange); a helper of another package changes the
// status by its facts (otherChange: StatusOnly, which a write refuses);
// a helper that writes the status it changed makes no late base
// (writerChange; advlatebaseother's writers of another package), nor one nine
// calls deep, beyond what either side follows (deepChange: locked, the
// write kept naming the chain and the base, not "the read"). The
// migrated package is advlatebase.go.golden.
func TestAdvLateBase(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advlatebase")
	want := map[int]string{
		35:  "(an empty patch, which wrote none of them)",
		47:  "(an empty patch, which wrote none of them)",
		61:  "which its patch did not send (only those after the base)",
		73:  "(an empty patch, which wrote none of them)",
		93:  "NewWidgetStatusPatcher, then Flush",
		106: "(an empty patch, which wrote none of them)",
		124: "add client.MergeFromWithOptimisticLock to the status patch; the write stays a finding",
		167: "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush)",
		180: "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush)",
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
	for _, line := range []int{167, 180} { // readers: no late base
		if strings.Contains(got[line], "its base was taken") {
			t.Errorf("line %d: fix %q calls a reader's call a status change", line, got[line])
		}
	}
	if len(got) != len(want) {
		t.Errorf("fixes at lines %v, want %d", got, len(want))
	}
}
