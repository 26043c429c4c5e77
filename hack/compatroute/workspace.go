package main

import (
	"fmt"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// At the workspace's line (hack/lines.txt's workspace role), testenv's
// and the explorer's tests may be make test's own: make test-testenv runs
// go test in each with the same flags (TestTestFlagsAreMakeTests) in the
// workspace, and when the workspace builds every package a module's tests
// build from the same module folders, with the same Go, the line's run
// would run the same code a second time. compat.sh test then leaves that
// module's tests to make test and says so; anything else (another Go, one
// package from another version, a go list that fails or lists nothing)
// runs them.

// makeTestModules are the modules whose tests make test-testenv runs in
// the workspace, with the line's flags.
var makeTestModules = []string{"testenv", "explore"}

// buildList is go list's line for each package a go test of a module's
// packages builds: its import path and the folder of its module (for a
// module from the module cache, a folder named with its version).
const buildList = "{{.ImportPath}} {{with .Module}}{{.Dir}}{{end}}"

// sameBuildCmds are the commands whose outputs, equal two by two, show
// that module's tests at line l build what make test's build: go's
// version, then the build list, in the workspace and at the line.
func sameBuildCmds(l lines.Line, module string) (workspace, line [2]gocmd.Cmd) {
	list := []string{"-deps", "-test", "-f", buildList, "./..."}
	version := []string{"env", "GOVERSION"}
	dir := moduleDirs[module]
	workspace = [2]gocmd.Cmd{
		{Dir: dir, Workspace: true, Verb: version},
		{Dir: dir, Workspace: true, Verb: []string{"list"}, Args: list},
	}
	line = [2]gocmd.Cmd{
		{Dir: dir, Toolchain: l.Toolchain, Verb: version},
		at(l, module, "list", list...),
	}
	return workspace, line
}

// isMakeTests reports whether module's tests at the workspace's line l
// build exactly what make test's do, and why not when they don't.
func (r *route) isMakeTests(l lines.Line, module string) (bool, string) {
	ws, at := sameBuildCmds(l, module)
	for i := range ws {
		a, errA := r.g.Output(ws[i])
		b, errB := r.g.Output(at[i])
		switch {
		case errA != nil || errB != nil:
			return false, fmt.Sprintf("go %s failed", strings.Join(ws[i].Verb, " "))
		case strings.TrimSpace(a) == "":
			return false, fmt.Sprintf("go %s printed nothing in the workspace", strings.Join(ws[i].Verb, " "))
		case a != b:
			return false, fmt.Sprintf("go %s differs from the workspace's", strings.Join(ws[i].Verb, " "))
		}
	}
	return true, ""
}

// linePlan is testPlan at line l, without the tests of the modules whose
// tests are make test's; it prints which.
func (r *route) linePlan(l lines.Line) []action {
	plan := testPlan(l)
	if !l.Has(lines.Workspace) {
		return plan
	}
	left := map[string]bool{}
	for _, m := range makeTestModules {
		same, why := r.isMakeTests(l, m)
		if !same {
			fmt.Fprintf(r.out, "=== %s: %s's tests run here: not shown to be make test's (%s)\n", l.Name, m, why)
			continue
		}
		fmt.Fprintf(r.out, "=== %s: %s's tests are make test's (make test-testenv: the same packages from the same module folders, the same Go, the same flags): not run again here\n", l.Name, m)
		left[moduleDirs[m]] = true
	}
	kept := plan[:0:0]
	for _, a := range plan {
		if !left[a.cmd.Dir] || a.cmd.Verb[0] != "test" {
			kept = append(kept, a)
		}
	}
	return kept
}
