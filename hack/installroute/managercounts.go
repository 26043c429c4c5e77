package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// The newcomer route's scaffold under a real manager (issue 72): one
// manager, as cmd/main.go runs it (its cached client, the reconciler's
// SetupWithManager as the scaffold has it), with widgetsAtOnce Widgets
// created at once on testenv's API server, before the migration and after
// init and -fix. testdata/newcomer/widget_manager_test.go is written into
// the scaffold's internal/controller and run with the scaffold's own
// module graph; it prints the counts.

// managerCounts is one run's line: reconciles, reconcile errors,
// conflicts logged (the server's 409s and the writes the patcher refused
// as conflicts without sending them) and decisions processed twice.
type managerCounts struct {
	widgets, reconciles, errors, conflicts, twice int
	// shapes are the fleet's lines (fleet.go), by shape: widgets is
	// the shape's objects.
	shapes map[string]managerCounts
}

var (
	managerCountsLine = regexp.MustCompile(`manager counts: widgets=(\d+) reconciles=(\d+) reconcile-errors=(\d+) conflicts-logged=(\d+) decisions-twice=(-?\d+)`)
	shapeCountsLine   = regexp.MustCompile(`manager counts: shape=(\S+) kind=\S+ objects=(\d+) reconciles=(\d+) reconcile-errors=(\d+) conflicts-logged=(\d+) decisions-twice=(-?\d+)`)
)

// parseManagerCounts reads the test's lines from its output: the Widgets'
// and one for each of the fleet's shapes.
func parseManagerCounts(out string) (managerCounts, bool) {
	m := managerCountsLine.FindStringSubmatch(out)
	if m == nil {
		return managerCounts{}, false
	}
	c := countsOf(m[1:])
	c.shapes = map[string]managerCounts{}
	for _, m := range shapeCountsLine.FindAllStringSubmatch(out, -1) {
		c.shapes[m[1]] = countsOf(m[2:])
	}
	return c, true
}

// countsOf is the five counts of a line, in its order.
func countsOf(m []string) managerCounts {
	var n [5]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i])
	}
	return managerCounts{widgets: n[0], reconciles: n[1], errors: n[2], conflicts: n[3], twice: n[4]}
}

// bad reports whether a run logged a conflict or another reconcile error,
// or made a decision twice.
func (c managerCounts) bad() bool {
	return c.conflicts > 0 || c.errors > 0 || c.twice > 0
}

const (
	managerTest      = "internal/controller/widget_manager_test.go"
	fleetManagerTest = "internal/controller/fleet_manager_test.go" // the fleet's kinds (fleet.go)
)

// managerRuns is how many times the manager test runs at each stage, each
// its own process (the counts vary with the cache's lag).
const managerRuns = 3

// runs are one stage's managerRuns counts.
type runs []managerCounts

func (rs runs) String() string {
	return rs.counts("widgets")
}

// shape is the runs' counts of one of the fleet's shapes.
func (rs runs) shape(name string) runs {
	var out runs
	for _, c := range rs {
		if s, ok := c.shapes[name]; ok {
			out = append(out, s)
		}
	}
	return out
}

// counts says the runs' counts, of objects named what.
func (rs runs) counts(what string) string {
	var reconciles, errs, conflicts, twice []string
	for _, c := range rs {
		reconciles = append(reconciles, strconv.Itoa(c.reconciles))
		errs = append(errs, strconv.Itoa(c.errors))
		conflicts = append(conflicts, strconv.Itoa(c.conflicts))
		twice = append(twice, strconv.Itoa(c.twice))
	}
	widgets := 0
	if len(rs) > 0 {
		widgets = rs[0].widgets
	}
	j := func(s []string) string { return strings.Join(s, "/") }
	return fmt.Sprintf("%d runs of %d %s: %s reconciles, %s reconcile errors, %s conflicts logged, %s decisions processed twice", len(rs), widgets, what, j(reconciles), j(errs), j(conflicts), j(twice))
}

// runManager writes the manager test (and the fleet's part of it) into
// the scaffold at dir, runs it managerRuns times and removes it.
func (n *newcomerRun) runManager(dir, when string) (runs, error) {
	tests := []string{managerTest, fleetManagerTest}
	defer func() {
		for _, f := range tests {
			_ = os.Remove(filepath.Join(dir, f))
		}
	}()
	for _, f := range tests {
		b, err := newcomerFiles.ReadFile("testdata/newcomer/" + filepath.Base(f))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return nil, err
		}
	}
	var rs runs
	for range managerRuns {
		out, err := n.r.teeAll(dir, "go test -count=1 -v -run '^TestWidgetManagerCounts$' ./internal/controller/")
		if err != nil {
			return nil, failf("the scaffold under a real manager %s failed (above)", when)
		}
		c, ok := parseManagerCounts(out)
		if !ok || len(c.shapes) != len(fleetShapes) {
			return nil, failf("the manager test %s printed no counts, or not one line for each of the fleet's %d shapes (above)", when, len(fleetShapes))
		}
		rs = append(rs, c)
	}
	return rs, nil
}

// managerBefore runs the manager on the scaffold as the user wrote it, in a
// copy (testenv added, make manifests run), so the route's later steps see
// the scaffold untouched.
func (n *newcomerRun) managerBefore() error {
	n.r.step("0. the scaffold under a real manager, before statuspatch: the Widgets created at once, the manager's cached client (a copy of the scaffold, with testenv, make generate and make manifests)")
	dir := filepath.Join(n.work, "operator-before")
	if n.r.run(n.work, "cp", "-a", n.op, dir) != nil {
		return failf("copying the scaffold failed (above)")
	}
	defer func() { _ = RemoveAll(dir) }()
	if n.r.run(dir, "go", "get", releaseproxy.Module+"/testenv@"+n.version) != nil {
		return failf("go get testenv in the scaffold's copy failed (above)")
	}
	if n.r.run(dir, "make", "generate", "manifests") != nil {
		return failf("make generate manifests in the scaffold's copy failed (above)")
	}
	c, err := n.runManager(dir, "before the migration")
	if err != nil {
		return err
	}
	n.mgrBefore = c
	n.r.step("the scaffold under a real manager, before statuspatch: %s", c)
	for _, s := range fleetShapes {
		n.r.step("the fleet's %s shape (%s) under a real manager, before statuspatch: %s", s.name, s.kind, c.shape(s.name).counts(plural(s.kind)))
	}
	return nil
}

// managerAfter runs the manager on the migrated scaffold: no conflict and
// no other reconcile error may reach the log, and no decision may be
// processed twice.
func (n *newcomerRun) managerAfter() error {
	n.r.step("4b. the migrated scaffold under a real manager: the Widgets created at once, the manager's cached client, SetupWithManager as init wired it")
	c, err := n.runManager(n.op, "after init and -fix")
	if err != nil {
		return err
	}
	n.r.step("the scaffold under a real manager: before statuspatch: %s; after init and -fix: %s", n.mgrBefore, c)
	var bad []string
	for _, r := range c {
		if r.bad() {
			bad = append(bad, fmt.Sprintf("the Widgets: %s", c))
			break
		}
	}
	for _, s := range fleetShapes {
		after := c.shape(s.name)
		n.r.step("the fleet's %s shape (%s) under a real manager: before statuspatch: %s; after init and -fix: %s", s.name, s.kind, n.mgrBefore.shape(s.name).counts(plural(s.kind)), after.counts(plural(s.kind)))
		for _, r := range after {
			if r.bad() {
				bad = append(bad, fmt.Sprintf("the %s shape: %s", s.name, after.counts(plural(s.kind))))
				break
			}
		}
	}
	if bad != nil {
		return failf("after init and -fix, under a real manager: conflicts (409s or writes refused as conflicts) or reconcile errors reached the log, or decisions were made twice, want none (the manager's log above): %s", strings.Join(bad, "; "))
	}
	return nil
}
