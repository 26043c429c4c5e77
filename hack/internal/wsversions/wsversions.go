// Package wsversions puts a test module outside the workspace at the
// workspace's versions: at the line the workspace builds (examples/go.mod
// pins it), the module takes the workspace's version of every module both
// graphs hold (golang.org/x/*, prometheus, protobuf ...), not tidy's lower
// one. Then the build cache serves it what make test compiled at the
// workspace's versions (the API server's libraries and controller-runtime:
// minutes on a cold 2-core machine), and CI compiles them once.
// hack/compatroute runs it for a line's testenv.mod, and
// hack/workspace-versions.sh (hack/workspaceversions) for other modules.
package wsversions

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// A Module is one row of go list -m all.
type Module struct{ Path, Version string }

// listFormat is go list -m's -f: one module a line, "PATH VERSION" (a
// workspace's or main module: no version).
const listFormat = "{{.Path}} {{.Version}}"

// List is go list -m all in dir: in the workspace (root's go.work) when
// modfile is "", else with GOWORK=off and that go.mod (relative to the
// root, as dir is).
func List(dir, modfile string) gocmd.Cmd {
	return gocmd.Cmd{Dir: dir, Workspace: modfile == "", Verb: []string{"list"}, Modfile: modfile, Args: []string{"-m", "-f", listFormat, "all"}}
}

// Parse reads List's output.
func Parse(out string) []Module {
	var ms []Module
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		switch len(f) {
		case 1:
			ms = append(ms, Module{Path: f[0]})
		case 2:
			ms = append(ms, Module{f[0], f[1]})
		}
	}
	return ms
}

// Requires are the -require flags that give mod the workspace's versions:
// for each module both lists hold at different versions, the workspace's,
// by path; none for the workspace's own modules (no version) or this
// repository's (github.com/statuspatch/).
func Requires(ws, mod []Module) []string {
	have := map[string]string{}
	for _, m := range mod {
		have[m.Path] = m.Version
	}
	// In the order of the rows sorted as text, as sort | join had them.
	rows := slices.Clone(ws)
	slices.SortFunc(rows, func(a, b Module) int { return strings.Compare(a.Path+" "+a.Version, b.Path+" "+b.Version) })
	var reqs []string
	for _, m := range slices.Compact(rows) {
		v, ok := have[m.Path]
		if !ok || v == m.Version || m.Version == "" || strings.HasPrefix(m.Path, "github.com/statuspatch/") {
			continue
		}
		reqs = append(reqs, "-require="+m.Path+"@"+m.Version)
	}
	return reqs
}

// IsLine reports whether the workspace builds controller-runtime cr and
// k8s.io/api k8s (examples/go.mod pins them).
func IsLine(ws []Module, cr, k8s string) bool {
	return slices.Contains(ws, Module{"sigs.k8s.io/controller-runtime", cr}) && slices.Contains(ws, Module{"k8s.io/api", k8s})
}

// AtLine reports whether the workspace at root builds controller-runtime
// cr and k8s.io/api k8s: the workspace's go list -m all.
func AtLine(g gocmd.Go, root, cr, k8s string) (bool, error) {
	out, err := g.Output(List(root, ""))
	if err != nil {
		return false, fmt.Errorf("the workspace's modules: %w", err)
	}
	return IsLine(Parse(out), cr, k8s), nil
}

// Apply puts the module in dir (relative to the runner's root, as root
// and modfile are; the runner's root is the current folder) at the workspace's versions: both graphs listed, the
// versions required, the go.mod tidied, saying which on notes.
func Apply(g gocmd.Go, root, dir, modfile string, notes io.Writer) error {
	ws, err := g.Output(List(root, ""))
	if err != nil {
		return fmt.Errorf("the workspace's modules: %w", err)
	}
	mod, err := g.Output(List(dir, modfile))
	if err != nil {
		return fmt.Errorf("%s's modules: %w", modfile, err)
	}
	reqs := Requires(Parse(ws), Parse(mod))
	if len(reqs) == 0 {
		return nil
	}
	name, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	var vs []string
	for _, r := range reqs {
		vs = append(vs, strings.TrimPrefix(r, "-require="))
	}
	fmt.Fprintf(notes, "  %s at the workspace's versions: %s\n", filepath.Base(name), strings.Join(vs, " "))
	for _, c := range []gocmd.Cmd{
		{Dir: dir, Verb: []string{"mod", "edit"}, Modfile: modfile, Args: reqs},
		{Dir: dir, Verb: []string{"mod", "tidy"}, Modfile: modfile},
	} {
		if err := g.Run(c); err != nil {
			return fmt.Errorf("%s at the workspace's versions: %w", modfile, err)
		}
	}
	return nil
}
