package installroute

import (
	"reflect"
	"testing"
)

// The manager test's line (testdata/newcomer/widget_manager_test.go) as
// the route reads it, and the runs as the route prints them.
func TestParseManagerCounts(t *testing.T) {
	out := "=== RUN   TestWidgetManagerCounts\n    widget_manager_test.go:131: manager counts: widgets=10 reconciles=28 reconcile-errors=5 conflicts-logged=5 decisions-twice=1\n--- PASS"
	c, ok := parseManagerCounts(out)
	if want := (managerCounts{widgets: 10, reconciles: 28, errors: 5, conflicts: 5, twice: 1, shapes: map[string]managerCounts{}}); !ok || !reflect.DeepEqual(c, want) {
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

// The fleet's lines (testdata/newcomer/fleet_manager_test.go), one a
// shape, read by shape.
func TestParseManagerCountsShapes(t *testing.T) {
	out := "    widget_manager_test.go:150: manager counts: widgets=10 reconciles=28 reconcile-errors=0 conflicts-logged=0 decisions-twice=0\n" +
		"    fleet_manager_test.go:118: manager counts: shape=deferred kind=Ship objects=10 reconciles=31 reconcile-errors=4 conflicts-logged=3 decisions-twice=2\n" +
		"    fleet_manager_test.go:118: manager counts: shape=list-loop kind=Berth objects=10 reconciles=12 reconcile-errors=0 conflicts-logged=0 decisions-twice=0\n"
	c, ok := parseManagerCounts(out)
	if !ok || len(c.shapes) != 2 {
		t.Fatalf("parseManagerCounts = %+v, %v; want the Widgets' line and 2 shapes", c, ok)
	}
	if want := (managerCounts{widgets: 10, reconciles: 31, errors: 4, conflicts: 3, twice: 2}); !reflect.DeepEqual(c.shapes["deferred"], want) || !c.shapes["deferred"].bad() || c.shapes["list-loop"].bad() {
		t.Errorf("the deferred shape = %+v, want %+v (bad), list-loop not bad: %+v", c.shapes["deferred"], want, c.shapes["list-loop"])
	}
	got := runs{c, c}.shape("deferred").counts("ships")
	if want := "2 runs of 10 ships: 31/31 reconciles, 4/4 reconcile errors, 3/3 conflicts logged, 2/2 decisions processed twice"; got != want {
		t.Errorf("runs.shape(deferred) = %q, want %q", got, want)
	}
}
