package main

import (
	"fmt"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// At the workspace's line (hack/lines.txt's workspace role), testenv's
// tests may be make test's own: make test-testenv runs go test with the
// same flags (TestTestFlagsAreMakeTests) in the workspace, and when the
// workspace builds every package those tests build from the same module
// folders, with the same Go, the line's run would run the same code a
// second time. compat.sh test then leaves them to make test and says so;
// anything else (another Go, one package from another version, a go list
// that fails or lists nothing) runs them.

// buildList is go list's line for each package a go test of testenv's
// packages builds: its import path and the folder of its module (for a
// module from the module cache, a folder named with its version).
const buildList = "{{.ImportPath}} {{with .Module}}{{.Dir}}{{end}}"

// sameBuildCmds are the commands whose outputs, equal two by two, show
// that testenv's tests at line l build what make test's build: go's
// version, then the build list, in the workspace and at the line.
func sameBuildCmds(l lines.Line) (workspace, line [2]gocmd.Cmd) {
	list := []string{"-deps", "-test", "-f", buildList, "./..."}
	version := []string{"env", "GOVERSION"}
	workspace = [2]gocmd.Cmd{
		{Dir: "testenv", Workspace: true, Verb: version},
		{Dir: "testenv", Workspace: true, Verb: []string{"list"}, Args: list},
	}
	line = [2]gocmd.Cmd{
		{Dir: "testenv", Toolchain: l.Toolchain, Verb: version},
		at(l, "testenv", "list", list...),
	}
	return workspace, line
}

// testenvIsMakeTests reports whether testenv's tests at the workspace's
// line l build exactly what make test's do, and why not when they don't.
func (r *route) testenvIsMakeTests(l lines.Line) (bool, string) {
	ws, at := sameBuildCmds(l)
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

// linePlan is testPlan at line l, without testenv's tests where they are
// make test's; it prints which.
func (r *route) linePlan(l lines.Line) []action {
	plan := testPlan(l)
	if !l.Has(lines.Workspace) {
		return plan
	}
	same, why := r.testenvIsMakeTests(l)
	if !same {
		fmt.Fprintf(r.out, "=== %s: testenv's tests run here: not shown to be make test's (%s)\n", l.Name, why)
		return plan
	}
	fmt.Fprintf(r.out, "=== %s: testenv's tests are make test's (make test-testenv: the same packages from the same module folders, the same Go, the same flags): not run again here\n", l.Name)
	kept := plan[:0:0]
	for _, a := range plan {
		if a.cmd.Dir != moduleDirs["testenv"] {
			kept = append(kept, a)
		}
	}
	return kept
}
