package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A project already partly on the patcher (issue 80, migrateexisting):
// the object's life in a function already holds a patcher its code made
// (New after the Get, or Fetch and p.Object()), and a handwritten write
// of the same object is left: later (a), on an exclusive path (b), in a
// deferred literal (c), a merge patch whose base is what the patcher
// holds, a helper of the package given the object (d), which takes the
// caller's patcher, a write after a re-read the code made the patcher's
// (p, err = Fetch...; order = p.Object(): what the re-Get's reason
// asks), and the scaffold's re-fetch after -fix (a second variable,
// orderPatcher2), its write turned back by hand (at 719fe63f it stayed:
// "order is handed to patchers.NewWidgetStatusPatcher at line 63,
// before the read", the first patcher's reference to the object before
// the re-read). Each becomes a Flush of that patcher, never a
// second New. At adaadbc9 none of those 6 moved (the helper kept for the
// caller's "alive at once"): 5 kept "a patcher of this write would
// be alive at once with it" (the Fetch's "not read with Get"), and the
// write before the patcher moved onto a second one, orderPatcher, alive
// beside p. A re-Get after p (f) is p's Fetch (at 3e67ca46 it stayed:
// "order is read again with Get at line 110, after its patcher p is made
// at line 105"). What stays names the line and the fact: a write before
// the patcher, another field owner, a base taken after
// a change the patcher has not sent, a write after a kept one, the
// patcher made again from another object before the write.
func TestMigrateExisting(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateexisting="}), "example.com/op/controllers/migrateexisting")
	moved, second := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher") {
					moved++
				}
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "NewWidgetStatusPatcher") {
						second++
					}
				}
			}
		}
	}
	if moved != 9 || second != 0 {
		t.Errorf("%d writes moved onto the code's patcher, %d second patchers made; want 9, 0", moved, second)
	}
}

// A second -fix run over the first one's output (the golden) changes
// nothing and reports the same 6 kept writes, each reason naming the
// lines of the code it reads: the base of lateBase at line 175 (174
// before the first run deleted patched's base and made reread's Get a
// Fetch), the write after a kept one at 192.
func TestMigrateExistingTwice(t *testing.T) {
	kept := fixTwice(t, "example.com/op/controllers/migrateexisting", "existing.go", "refetched.go")
	all := strings.Join(kept, "\n")
	if len(kept) != 6 || !strings.Contains(all, "the base is taken at line 175, after order changes at line 174") || !strings.Contains(all, "the status write of order at line 192, after its patcher p is made at line 190") {
		t.Errorf("the second run keeps %d writes, want 6 naming the lines it reads:\n%s", len(kept), all)
	}
}

// Writes beside the code's patcher that s99's reader found mishandled
// (migrateexistingedge): a List item's write stays (before, a Flush of
// the cached copy, its finding gone after -fix), a deferred write
// registered before the patcher says -fix's rule (before: "after this
// write or on another path"), and a decision read from the status
// moves into the patcher's Retry (s99: no word; s100: a Flush, the fix
// saying "-fix does not move a decision into the Retry of a patcher the
// code made"; TestMigrateExistingRetry).
func TestMigrateExistingEdges(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateexistingedge="}), "example.com/op/controllers/migrateexistingedge")
	notes := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.Contains(f.Message, "(the decision in Retry of p, the patcher made at line 75)") {
					notes++
				}
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d fixes move the decision into p's Retry; want 1", notes)
	}
}
