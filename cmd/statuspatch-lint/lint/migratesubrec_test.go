package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's B3 (migratesubrec): a sub-reconciler built in its call,
// (&harbour{c: r.Client}).reconcile(ctx, fleet), or in a local of the
// caller, or given its client by position, takes the patcher as a
// write-only helper does, made with the client the literal names (at
// 1bc16a4 of the newcomer's project: kept, "its call at line 88 does not
// name the client as a variable or field"). One held in a field of the
// reconciler, built in SetupWithManager with a client of its own, stays
// when its caller's own writes of the object go through another client,
// naming where it is built; one built with a call's client stays too.
func TestMigrateSubReconciler(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratesubrec="}), "example.com/op/controllers/migratesubrec")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher (reconcile takes the patcher") {
					moved++
				}
			}
		}
	}
	// Five: rosterReconciler's decision in the patcher's Retry
	// (migratehelperretry.go).
	if moved != 5 {
		t.Errorf("%d sub-reconcilers moved onto the patcher, want 5", moved)
	}
}
