package installroute

import "testing"

// The manager test's line (testdata/newcomer/widget_manager_test.go) as
// the route reads it, and the runs as the route prints them.
func TestParseManagerCounts(t *testing.T) {
	out := "=== RUN   TestWidgetManagerCounts\n    widget_manager_test.go:131: manager counts: widgets=10 reconciles=28 reconcile-errors=5 conflicts-logged=5 decisions-twice=1\n--- PASS"
	c, ok := parseManagerCounts(out)
	if want := (managerCounts{widgets: 10, reconciles: 28, errors: 5, conflicts: 5, twice: 1}); !ok || c != want {
		t.Fatalf("parseManagerCounts = %+v, %v; want %+v", c, ok, want)
	}
	if _, ok := parseManagerCounts("ok  example.com/widgets/internal/controller"); ok {
		t.Error("a run without the line parsed")
	}
	got := runs{c, {widgets: 10, reconciles: 24}}.String()
	if want := "2 runs of 10 widgets: 28/24 reconciles, 5/0 reconcile errors, 5/0 conflicts logged, 1/0 decisions processed twice"; got != want {
		t.Errorf("runs.String() = %q, want %q", got, want)
	}
}
