package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (F1 of s95): 749429f took the lock off a patch helper kept
// beside another writer of its object only when that was the reason it
// was kept (TwoPatchers). A helper kept for a reason of its own (its
// constructor given s.Widget, not a variable; an interface; a call
// assigned to nothing, migratecapibeside's made) whose base is taken
// before another write of its object on the way to its Patch (a deferred
// Patch after the scope's Update, a finalizer's Update) still got
// MergeFromWithOptimisticLock: its patch sends the base's
// resourceVersion, which that write moved, and would conflict on every
// reconcile where both change. Now it gets none, naming the write; the
// helpers whose Patch runs first (early, inline) keep the lock.
func TestMigrateCAPILock(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapilock="}), "example.com/op/controllers/migratecapilock")
	locked, unlocked := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "Patch") && !strings.Contains(d.Message, "patch") {
				continue
			}
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "add client.MergeFromWithOptimisticLock") {
					locked++
				}
			}
			if strings.Contains(d.Message, "(no fix: a lock would send the resourceVersion of a base taken before that other write") {
				unlocked++
			}
		}
	}
	if locked != 2 || unlocked != 2 {
		t.Errorf("%d patch helpers locked, %d left unlocked naming the other write, want 2 and 2", locked, unlocked)
	}
}

// Issue 80 (F2 of s95, a review of dcc4459's besideHelper): a status
// write deferred before a patch helper of its object is made runs after
// the helper's patch, but besideHelper looked for helpers made before
// the write's place, and alongside for writes after the constructor's:
// at 0d0ab0e both moved, the deferred Flush of a patcher made at the Get
// conflicting after the helper's patcher flushed. Now a deferred write
// counts as after every helper of its function: both stay, naming the
// other's line.
func TestMigrateCAPIDefer(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapidefer="}), "example.com/op/controllers/migratecapidefer")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto") {
					t.Errorf("%s: moved beside a patch helper: %s", r.Pass.Fset.Position(d.Pos), f.Message)
				}
			}
		}
	}
}

// s95 R3, a review of b494324: a status write before a patch helper of its
// object made later in a loop around both, not its read, runs again after
// the helper's patch: at e30f2f0 it moved onto a patcher made at the Get,
// whose next turn's Flush conflicts. It stays; the helper, its base taken
// after the write each turn, may move.
func TestMigrateCAPILoop(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapiloop="}), "example.com/op/controllers/migratecapiloop")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher") {
					t.Errorf("%s: the write moved beside a patch helper: %s", r.Pass.Fset.Position(d.Pos), f.Message)
				}
			}
		}
	}
}
