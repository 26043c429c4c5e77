package installroute

import (
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
)

// The fleet (issue 80's item 2): seven shapes of status write, each on its
// own kind in the scaffold's api/v1 with its own controller, written as
// docs/kubebuilder.md's "What -fix moves" rows describe them
// (testdata/newcomer/fleet): a deferred write with a named error return,
// retry.RetryOnConflict, a parent writing its children's status in a loop
// over a List, phase functions held as values with one write after, a
// generic patchStatus[T] helper, a sub-reconciler with its own client, and
// kubebuilder's deploy-image tutorial's Reconcile (the status set Unknown,
// written and read again, a finalizer, a deferred failure condition, a
// merge patch, and its deletion branch's two writes around a re-read:
// five writes of one object; the manager test deletes the Ferries).
// Each decision hands out a token from the status (if the token is empty,
// take the next of a counter), one that must happen once: the manager
// test (fleet_manager_test.go) counts the tokens handed out beyond one per
// object.

// fleetShape is one shape: its name in the route's lines, its controller's
// file and the kinds it writes and is for.
type fleetShape struct {
	name, file, kind, controller string
}

var fleetShapes = []fleetShape{
	{"deferred", "ship_controller.go", "Ship", "Ship"},
	{"retry-on-conflict", "crate_controller.go", "Crate", "Crate"},
	{"list-loop", "dock_controller.go", "Berth", "Dock"},
	{"phase-values", "voyage_controller.go", "Voyage", "Voyage"},
	{"generic-helper", "cargo_controller.go", "Cargo", "Cargo"},
	{"sub-reconciler", "anchor_controller.go", "Anchor", "Anchor"},
	{"tutorial", "ferry_controller.go", "Ferry", "Ferry"},
}

// fleetKinds are the fleet's kinds, as kubebuilder create api adds them.
var fleetKinds = []string{"Ship", "Crate", "Dock", "Berth", "Voyage", "Cargo", "Anchor", "Ferry"}

// fleet writes the fleet's types and controllers into the scaffold and
// adds its kinds as kubebuilder create api adds them: to the scheme, to
// PROJECT and to config/crd's kustomization.
func (n *newcomerRun) fleet() error {
	sub, err := fs.Sub(newcomerFiles, "testdata/newcomer/fleet")
	if err != nil {
		return err
	}
	if err := os.CopyFS(n.op, sub); err != nil {
		return fmt.Errorf("the fleet into the scaffold %s: %w", n.op, err)
	}
	for _, e := range []struct {
		file string
		edit func(string) string
	}{
		{"api/v1/groupversion_info.go", addFleetKinds},
		{"PROJECT", addFleetResources},
		{"config/crd/kustomization.yaml", addFleetCRDs},
	} {
		if err := editFile(n.file(e.file), e.edit); err != nil {
			return err
		}
	}
	return nil
}

// addFleetKinds adds the fleet's kinds to AddToScheme.
func addFleetKinds(gv string) string {
	var kinds []string
	for _, k := range fleetKinds {
		kinds = append(kinds, "&"+k+"{}", "&"+k+"List{}")
	}
	return strings.Replace(gv, "&Widget{}, &WidgetList{}", "&Widget{}, &WidgetList{}, "+strings.Join(kinds, ", "), 1)
}

// addFleetResources adds the fleet's kinds to PROJECT's resources.
func addFleetResources(project string) string {
	var add []string
	for _, k := range fleetKinds {
		add = append(add, "- api:", "    crdVersion: v1", "    namespaced: true", "  controller: "+fmt.Sprint(k != "Berth"),
			"  domain: example.com", "  group: widgets", "  kind: "+k, "  path: example.com/widgets/api/v1", "  version: v1")
	}
	return strings.Replace(project, "\nversion: \"3\"", "\n"+strings.Join(add, "\n")+"\nversion: \"3\"", 1)
}

// addFleetCRDs adds the fleet's CRDs to config/crd's resources.
func addFleetCRDs(k string) string {
	var add []string
	for _, kind := range fleetKinds {
		add = append(add, "- bases/widgets.example.com_"+plural(kind)+".yaml")
	}
	return insertAfter(k, "- bases/widgets.example.com_widgets.yaml", add...)
}

// plural is controller-gen's plural of the fleet's kinds.
func plural(kind string) string {
	switch kind {
	case "Cargo":
		return "cargoes"
	case "Ferry":
		return "ferries"
	}
	return strings.ToLower(kind) + "s"
}

// fixReport is what -fix did to each of the fleet's writes: the lines of
// its output naming the shape's file, fixed or kept.
type fixReport struct {
	shape        fleetShape
	fixed, kept  int
	keptFindings []string
}

var fixLine = regexp.MustCompile(`(?m)^.*internal/controller/([a-z_]+\.go):[0-9]+:[0-9:]* (.*)$`)

// fleetFixReport reads -fix's report (cmd/statuspatch-lint's
// `file:line: fixed: <fix>`, `file:line: kept: <finding>` and `locked,
// kept:`): per shape, the writes fixed and those kept.
func fleetFixReport(out string) []fixReport {
	var rs []fixReport
	for _, s := range fleetShapes {
		r := fixReport{shape: s}
		for _, m := range fixLine.FindAllStringSubmatch(out, -1) {
			if m[1] != s.file {
				continue
			}
			switch {
			case strings.HasPrefix(m[2], "fixed: "):
				r.fixed++
			case strings.HasPrefix(m[2], "kept: "), strings.HasPrefix(m[2], "locked, kept: "):
				r.kept++
				r.keptFindings = append(r.keptFindings, m[0])
			}
		}
		rs = append(rs, r)
	}
	return rs
}

func (r fixReport) String() string {
	verdict := "moved"
	switch {
	case r.kept > 0:
		verdict = "KEPT"
	case r.fixed == 0:
		verdict = "not reported"
	}
	return fmt.Sprintf("%s (%s, %s): %s, %d written fixed, %d kept", r.shape.name, r.shape.file, r.shape.kind, verdict, r.fixed, r.kept)
}

// reportFleet prints what -fix did to each of the fleet's writes and
// fails, naming them, when it kept any: every shape's write must move.
func (n *newcomerRun) reportFleet(out string) error {
	var kept []string
	for _, r := range fleetFixReport(out) {
		n.r.step("-fix on the fleet's %s", r)
		if r.kept > 0 || r.fixed == 0 {
			kept = append(kept, r.shape.name)
			for _, f := range r.keptFindings {
				n.r.printf("%s\n", f)
			}
			continue
		}
		b, err := os.ReadFile(n.file("internal/controller/" + r.shape.file))
		if err != nil {
			return err
		}
		n.r.printf("%s", b)
	}
	if kept != nil {
		return failf("-fix did not move the fleet's %s write (above): every shape's must move (docs/kubebuilder.md's rows)", strings.Join(kept, ", "))
	}
	return nil
}

// fleetLeft fails when a handwritten status write is left in the fleet's
// controllers after the fix block.
func (n *newcomerRun) fleetLeft() error {
	for _, s := range fleetShapes {
		b, err := os.ReadFile(n.file("internal/controller/" + s.file))
		if err != nil {
			return err
		}
		if left := handwrittenLeft(string(b)); left != "" {
			n.r.printf("%s", left)
			return failf("a handwritten status write is left in the fleet's %s shape, internal/controller/%s, after the fix block (above)", s.name, s.file)
		}
	}
	return nil
}
