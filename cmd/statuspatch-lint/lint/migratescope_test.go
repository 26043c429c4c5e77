package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's third newcomer project (cluster-api's scope): an object read
// with Get into a field of a per-reconcile scope, s.Widget, and written
// by reconcileNormal (twice) and reconcileDelete through w := s.Widget
// moves: the patcher is made after that Get and passed beside the scope,
// each write a Flush of it (at 3f54101 all stayed: "w is s.Widget, and
// the struct field Widget is read with Get in Reconciler.Reconcile").
// One whose field is assigned after its Get (or the whole scope, *s =
// ...), whose scope is handed to a function that may change it, or to a
// method of it doing more than read its other fields (s.Close re-reading
// with Get), called between the Get and the call or before the Get (a
// method keeping a pointer into the status, or re-reading: at 676a4e9
// both moved, "6 writes through a scope's field moved, want 4"), or
// whose helper changes the spec stays, naming why; a method only reading
// another field (o.Owner) leaves it moving. A write
// of the field itself (d.Widget), or of a field no Get reads, stays with
// the field's reason.
func TestMigrateScopeField(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratescope="}), "example.com/op/controllers/migratescope")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher (") && strings.Contains(f.Message, " takes the patcher beside s, which its callers make after their Get of s.Widget") {
					moved++
				}
			}
		}
	}
	if moved != 4 {
		t.Errorf("%d writes through a scope's field moved, want 4", moved)
	}
}
