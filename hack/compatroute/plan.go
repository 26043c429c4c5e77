package main

import (
	"fmt"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// The modules tested at each line, by the name of their alternate go.mod
// in hack/compat/<line>/ (Line.Pins knows what each requires): their
// folders.
const goldens = "cmd/statuspatch-gen/generator/testdata"

var moduleDirs = map[string]string{"root": ".", "testenv": "testenv", "explore": "testenv/explore", "goldens": goldens}

// modules is the order update writes them in.
var modules = []string{"root", "testenv", "explore", "goldens"}

// modfile is MODULE's alternate go.mod at the line.
func modfile(line, module string) string { return "hack/compat/" + line + "/" + module + ".mod" }

// An action is one go command of a line's test or build, echoed first.
type action struct {
	cmd gocmd.Cmd
	// errorsOnly: the command's output is export data's listing, which
	// names packages in error only: its empty lines are dropped.
	errorsOnly bool
}

// at is go VERB ARGS in MODULE's folder with the line's Go and the
// module's alternate go.mod.
func at(l lines.Line, module, verb string, args ...string) gocmd.Cmd {
	return gocmd.Cmd{Dir: moduleDirs[module], Toolchain: l.Toolchain, Verb: []string{verb}, Modfile: modfile(l.Name, module), Args: args}
}

// testPlan is what compat.sh test runs at a line. go test's result cache
// applies as in make test: a line's tests run again when anything they
// build from, or a file or variable they read, changed. Its test flags are
// make test's (the Makefile's TEST_FLAGS): no vet pass (vet runs first),
// test binaries linked without DWARF, 30 minutes a package.
func testPlan(l lines.Line) []action {
	test := func(module string, pkgs ...string) gocmd.Cmd {
		return at(l, module, "test", append([]string{"-vet=off", "-ldflags=-w", "-timeout", "30m"}, pkgs...)...)
	}
	return []action{
		{cmd: at(l, "root", "vet", "./...")},
		{cmd: test("root", "./patcher/...", "./patchertest/...")},
		{cmd: test("testenv", "./...")},
		{cmd: test("explore", "./...")},
		{cmd: at(l, "goldens", "vet", "./...")},
		{cmd: test("goldens", "./...")},
	}
}

// exportData compiles PKGS, their tests and their dependencies (go list
// -export), printing only packages in error.
func exportData(l lines.Line, module string, pkgs ...string) action {
	args := append([]string{"-export", "-deps", "-test", "-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}"}, pkgs...)
	return action{cmd: at(l, module, "list", args...), errorsOnly: true}
}

// buildPlan is testPlan's compile without its tests. go vet is testPlan's
// own (its result is then cached); go list -export compiles each package
// and test package with the same actions go test's build takes, so test
// finds them in the build cache and only links and runs.
func buildPlan(l lines.Line) []action {
	return []action{
		{cmd: at(l, "root", "vet", "./...")},
		{cmd: at(l, "goldens", "vet", "./...")},
		exportData(l, "root", "./patcher/...", "./patchertest/..."),
		exportData(l, "testenv", "./..."),
		exportData(l, "explore", "./..."),
		exportData(l, "goldens", "./..."),
	}
}

// runAll runs the actions in order, each echoed, up to the first failure.
func (r *route) runAll(plan []action) error {
	for _, a := range plan {
		echo, err := a.cmd.Echo()
		if err != nil {
			return err
		}
		fmt.Fprintln(r.out, echo)
		if !a.errorsOnly {
			if err := r.g.Run(a.cmd); err != nil {
				return err
			}
			continue
		}
		out, err := r.g.Output(a.cmd)
		fmt.Fprint(r.out, nonEmpty(out))
		if err != nil {
			return err
		}
	}
	return nil
}

// nonEmpty is out without its empty lines (grep .).
func nonEmpty(out string) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if strings.TrimSuffix(line, "\n") != "" {
			b.WriteString(strings.TrimSuffix(line, "\n") + "\n")
		}
	}
	return b.String()
}
