package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/wsversions"
)

// compat.sh update: each line's alternate go.mod files, from the modules'
// own go.mod and go.sum, with the go command of the caller's Go
// (GOTOOLCHAIN as it is), outside the workspace.

// updateLine writes the line's alternate go.mod files.
func (r *route) updateLine(l lines.Line) error {
	if err := os.MkdirAll(filepath.Dir(modfile(l.Name, "root")), 0o755); err != nil {
		return fmt.Errorf("update %s: %w", l.Name, err)
	}
	fmt.Fprintf(r.notes, "hack/compat/%s: controller-runtime %s, k8s.io %s\n", l.Name, l.CR, l.K8s)
	for _, m := range modules {
		if err := r.alternate(l, m); err != nil {
			return fmt.Errorf("update %s: %s.mod: %w", l.Name, m, err)
		}
	}
	return nil
}

// alternatePlan are the go commands that make MODULE's copied go.mod the
// line's: its pins required (and the statuspatch modules testenv and the
// explorer require replaced by this checkout's), tidied.
func alternatePlan(l lines.Line, module string) ([]gocmd.Cmd, error) {
	pins, err := l.Pins(module)
	if err != nil {
		return nil, err
	}
	dir, mf := moduleDirs[module], modfile(l.Name, module)
	plan := []gocmd.Cmd{{Dir: dir, Verb: []string{"mod", "edit"}, Modfile: mf, Args: pins}}
	switch module {
	case "testenv":
		plan = append(plan, gocmd.Cmd{Dir: dir, Verb: []string{"mod", "edit"}, Modfile: mf, Args: []string{"-replace=github.com/statuspatch/statuspatch@v0.1.0=../",
			"-replace=github.com/statuspatch/statuspatch/testenv/explore@v0.1.0=./explore"}})
	case "explore":
		plan = append(plan, gocmd.Cmd{Dir: dir, Verb: []string{"mod", "edit"}, Modfile: mf, Args: []string{"-replace=github.com/statuspatch/statuspatch@v0.1.0=../../"}})
	}
	return append(plan, gocmd.Cmd{Dir: dir, Verb: []string{"mod", "tidy"}, Modfile: mf}), nil
}

// alternate writes hack/compat/LINE/MODULE.mod and .sum: the module's
// go.mod with the line's versions, tidied. At the line the workspace
// builds, testenv's and the explorer's then take the workspace's versions
// (wsversions): make test's compile of their dependencies is this line's
// compile too (workspace.go). Other lines are left as tidy made them.
func (r *route) alternate(l lines.Line, module string) error {
	plan, err := alternatePlan(l, module)
	if err != nil {
		return err
	}
	dir, mf := moduleDirs[module], modfile(l.Name, module)
	if err := copyModule(dir, mf); err != nil {
		return err
	}
	for _, c := range plan {
		if err := r.g.Run(c); err != nil {
			return err
		}
	}
	if !slices.Contains(makeTestModules, module) {
		return nil
	}
	ws, err := wsversions.AtLine(r.g, ".", l.CR, l.K8s)
	if err != nil || !ws {
		return err
	}
	return wsversions.Apply(r.g, ".", dir, mf, r.notes)
}

// belowPlan are the go commands that make the runtime's copied go.mod
// pin the line below the floor: controller-runtime by replace, as
// operators pin it, tidied with -e (it does not build).
func belowPlan(l lines.Line) []gocmd.Cmd {
	mf := modfile("below", "root")
	return []gocmd.Cmd{
		{Dir: ".", Verb: []string{"mod", "edit"}, Modfile: mf, Args: []string{"-replace=sigs.k8s.io/controller-runtime=sigs.k8s.io/controller-runtime@" + l.CR}},
		{Dir: ".", Verb: []string{"mod", "tidy", "-e"}, Modfile: mf},
	}
}

// updateBelow writes hack/compat/below/root.mod and .sum.
func (r *route) updateBelow(l lines.Line) error {
	mf := modfile("below", "root")
	if err := os.MkdirAll(filepath.Dir(mf), 0o755); err != nil {
		return fmt.Errorf("update below: %w", err)
	}
	fmt.Fprintf(r.notes, "hack/compat/below: controller-runtime %s by replace\n", l.CR)
	if err := copyModule(".", mf); err != nil {
		return fmt.Errorf("update below: %w", err)
	}
	for _, c := range belowPlan(l) {
		if err := r.g.Run(c); err != nil {
			return fmt.Errorf("update below: %w", err)
		}
	}
	return nil
}

// copyModule copies dir's go.mod and go.sum to modfile and its .sum.
func copyModule(dir, modfile string) error {
	for _, ext := range []string{".mod", ".sum"} {
		b, err := os.ReadFile(filepath.Join(dir, "go"+ext))
		if err != nil {
			return fmt.Errorf("copy %s's go%s: %w", dir, ext, err)
		}
		if err := os.WriteFile(strings.TrimSuffix(modfile, ".mod")+ext, b, 0o644); err != nil {
			return fmt.Errorf("copy %s's go%s: %w", dir, ext, err)
		}
	}
	return nil
}
