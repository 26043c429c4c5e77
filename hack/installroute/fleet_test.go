package installroute

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// -fix's report read per shape: fixed, kept and locked lines of the
// shape's file; the checker's own lines after it (file:line:col) are not
// counted again.
func TestFleetFixReport(t *testing.T) {
	out := `/tmp/x/operator/internal/controller/crate_controller.go:47: fixed: move the status write onto CrateStatusPatcher (FetchCrateStatusPatcher, the loop's decision in Retry) (edit at /tmp/x/operator/internal/controller/crate_controller.go:39)
/tmp/x/operator/internal/controller/ship_controller.go:44: kept: handwritten status write to Ship: use ShipStatusPatcher (not moved to the patcher: ...)
/tmp/x/operator/internal/controller/cargo_controller.go:52: locked, kept: handwritten status write to Cargo (a lock)
/tmp/x/operator/internal/controller/ship_controller.go:44:13: handwritten status write to Ship: use ShipStatusPatcher (not moved to the patcher: ...)
statuspatch-lint: fixed 1 status write, kept 2
`
	got := map[string]string{}
	for _, r := range fleetFixReport(out) {
		got[r.shape.name] = r.String()
	}
	want := map[string]string{
		"deferred":          "deferred (ship_controller.go, Ship): KEPT, 0 written fixed, 1 kept",
		"retry-on-conflict": "retry-on-conflict (crate_controller.go, Crate): moved, 1 written fixed, 0 kept",
		"generic-helper":    "generic-helper (cargo_controller.go, Cargo): KEPT, 0 written fixed, 1 kept",
		"list-loop":         "list-loop (dock_controller.go, Berth): not reported, 0 written fixed, 0 kept",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("shape %s: %q, want %q", name, got[name], w)
		}
	}
}

// The route's shapes are the manager test's (fleet_manager_test.go's
// table), each with its controller in testdata/newcomer/fleet, and every
// kind of the fleet's types is added to the scheme, PROJECT and config/crd.
func TestFleetMatchesTestdata(t *testing.T) {
	mgr, err := newcomerFiles.ReadFile("testdata/newcomer/fleet_manager_test.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\t\{"([a-z-]+)", "([A-Za-z]+)", "([A-Za-z]+)", &`)
	rows := row.FindAllStringSubmatch(string(mgr), -1)
	if len(rows) != len(fleetShapes) {
		t.Fatalf("fleet_manager_test.go has %d shapes, the route %d", len(rows), len(fleetShapes))
	}
	for i, s := range fleetShapes {
		if r := rows[i]; r[1] != s.name || r[2] != s.kind || r[3] != s.controller {
			t.Errorf("shape %d: the manager test's %v, the route's %+v", i, r[1:], s)
		}
		src, err := newcomerFiles.ReadFile("testdata/newcomer/fleet/internal/controller/" + s.file)
		if err != nil {
			t.Fatal(err)
		}
		if !handwritten.Match(src) || !strings.Contains(string(src), "For(&widgetsv1."+s.controller+"{})") {
			t.Errorf("%s: no handwritten status write, or not a controller for %s", s.file, s.controller)
		}
	}
	types, err := newcomerFiles.ReadFile("testdata/newcomer/fleet/api/v1/fleet_types.go")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "installtest", "testdata", "operator")
	gv, err := os.ReadFile(filepath.Join(root, "api", "v1", "groupversion_info.go"))
	if err != nil {
		t.Fatal(err)
	}
	kust, err := os.ReadFile(filepath.Join(root, "config", "crd", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	project, err := newcomerFiles.ReadFile("testdata/newcomer/scaffold/PROJECT")
	if err != nil {
		t.Fatal(err)
	}
	scheme, proj, crds := addFleetKinds(string(gv)), addFleetResources(string(project)), addFleetCRDs(string(kust))
	for _, k := range fleetKinds {
		if !strings.Contains(string(types), "\ntype "+k+" struct {") {
			t.Errorf("fleet_types.go has no kind %s", k)
		}
		if !strings.Contains(scheme, "&"+k+"{}, &"+k+"List{}") || !strings.Contains(proj, "  kind: "+k+"\n") || !strings.Contains(crds, "- bases/widgets.example.com_"+plural(k)+".yaml\n") {
			t.Errorf("%s is not added to AddToScheme, PROJECT or config/crd's kustomization", k)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(proj), `version: "3"`) {
		t.Errorf("PROJECT's resources added after its version line:\n%s", proj)
	}
}
