package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// Issue 80, a sub-reconciler wired to the manager's plain client
// (migratesubcache): its reconciler's client is patcher.ForManager's, its
// own mgr.GetClient(). -fix moves its write through its own client, the
// decision into Retry, and says that Retry's re-read goes through the
// manager's cache, naming the line that sets the field and the fix. A
// Flush (nothing read again), a sub-reconciler built with r.Client, and a
// reconciler that has not adopted ForManager get no note, nor does one
// whose type another reconciler's field holds on the plain client
// (audit.go: the chain r.docks.c matches as a whole, not by its c). A
// write made
// through the sub-struct's client by the reconciler itself (Berths), and a
// field set by a constructor that keeps its parameter, get the same note
// (s103: none); a constructor that keeps another client gets none.
func TestMigrateSubReconcilerPlainClient(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratesubcache="}), "example.com/op/controllers/migratesubcache")
	const note = "; its client r.ports.c is mgr.GetClient() at line 93, the manager's plain client, while r.Client is patcher.ForManager's at line 92: " +
		"on a 409 Retry reads port again through the manager's cache, which may lag (the same 409 again, or ErrStaleCache), where ForManager's reads through the API reader, " +
		"and the next reconcile decides again: give it patcher.ForManager(mgr, ...) at line 93)"
	berth := func(field string, line int) string {
		return fmt.Sprintf("; its client b.%s.c is mgr.GetClient() at line %d, the manager's plain client, while b.Client is patcher.ForManager's at line 214: "+
			"on a 409 Retry reads %s again through the manager's cache, which may lag (the same 409 again, or ErrStaleCache), where ForManager's reads through the API reader, "+
			"and the next reconcile decides again: give it patcher.ForManager(mgr, ...) at line %d)", field, line, map[string]string{"berths": "berth", "piers": "pier", "wharfs": "wharf"}[field], line)
	}
	want := map[int]string{
		38:  "(reconcile takes the patcher its callers make with NewWidgetStatusPatcher, its decision in Retry" + note,
		60:  "(reconcile takes the patcher its callers make with NewWidgetStatusPatcher, then Flush)",
		80:  "(reconcile takes the patcher its callers make with NewWidgetStatusPatcher, its decision in Retry)",
		114: "(reconcile takes the patcher its callers make with NewWidgetStatusPatcher, its decision in Retry)",
		173: "(NewWidgetStatusPatcher, the decision in Retry" + berth("berths", 215),
		180: "(reconcile takes the patcher its callers make with NewWidgetStatusPatcher, its decision in Retry" + berth("piers", 216),
		199: "(NewWidgetStatusPatcher, the decision in Retry" + berth("wharfs", 217),
		210: "(NewWidgetStatusPatcher, the decision in Retry)",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			switch {
			case !ok:
				t.Errorf("line %d: unexpected finding %q", line, d.Message)
			case len(d.SuggestedFixes) != 1 || !strings.HasSuffix(d.SuggestedFixes[0].Message, w):
				t.Errorf("line %d: fixes %v, want one ending %q", line, d.SuggestedFixes, w)
			}
			delete(want, line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
