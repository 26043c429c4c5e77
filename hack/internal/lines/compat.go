package lines

import (
	"fmt"
	"slices"
	"strings"
)

// The compatibility route's choices (hack/compatroute, and lines compat
// and lines pins for scripts): which lines a command runs at, and what
// each module's alternate go.mod requires there.

// A Step is one unit of hack/compat.sh's work: a supported line (Kind
// "line") or the line below the floor ("below").
type Step struct {
	Kind string
	Line Line
}

// String is the step as compat.sh reads it: "line NAME CR K8S TOOLCHAIN",
// or "below NAME CR TOOLCHAIN".
func (s Step) String() string {
	if s.Kind == Below {
		return strings.Join([]string{Below, s.Line.Name, s.Line.CR, s.Line.Toolchain}, " ")
	}
	return strings.Join([]string{"line", s.Line.Name, s.Line.CR, s.Line.K8s, s.Line.Toolchain}, " ")
}

// Compat is what hack/compat.sh CMD SELECTOR... runs, in order:
//   - update: every supported line's alternate go.mod files, then below's;
//   - test: the selected supported lines (every one without a selector),
//     then below when no selector is given or "below" is one;
//   - build: the selected supported lines (every one without a selector);
//     below has nothing to build.
//
// A selector that names only the line below the floor (v0.21) is "below".
func (t Table) Compat(cmd string, sel ...string) ([]Step, error) {
	below, _ := t.Role(Below)
	var lineSel []string
	wantBelow := len(sel) == 0
	for _, s := range sel {
		if s == Below || s == below.Name {
			wantBelow = true
		} else {
			lineSel = append(lineSel, s)
		}
	}
	var steps []Step
	addLines := func() error {
		if len(sel) > 0 && len(lineSel) == 0 {
			return nil
		}
		ls, err := t.Select(lineSel...)
		if err != nil {
			return err
		}
		for _, l := range ls {
			if !l.Has(Below) {
				steps = append(steps, Step{"line", l})
			}
		}
		return nil
	}
	switch cmd {
	case "update":
		if len(sel) > 0 {
			return nil, fmt.Errorf("compat update rewrites every line's go.mod files; it takes no selector")
		}
		if err := addLines(); err != nil {
			return nil, err
		}
		steps = append(steps, Step{Below, below})
	case "test":
		if err := addLines(); err != nil {
			return nil, err
		}
		if wantBelow {
			steps = append(steps, Step{Below, below})
		}
	case "build":
		if len(sel) > 0 && len(lineSel) < len(sel) {
			return nil, fmt.Errorf("compat build: the line below the floor is tested (compat.sh test below), not built")
		}
		if err := addLines(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("compat: unknown command %q (update, test, build)", cmd)
	}
	return steps, nil
}

// compatModules are the modules hack/compat.sh builds at each line, by the
// name of their alternate go.mod, and the k8s.io modules each one's
// alternate requires at the line's version (beside controller-runtime).
var compatModules = map[string][]string{
	"root":    {"api", "apimachinery", "client-go"},
	"testenv": {"api", "apimachinery", "client-go", "apiextensions-apiserver", "apiserver"},
	"explore": {"api", "apimachinery", "client-go"},
	"goldens": {"api", "apimachinery", "client-go"},
}

// Pins are the go mod edit flags that put MODULE's alternate go.mod at the
// line: -require=PATH@VERSION for controller-runtime and each k8s.io module.
func (l Line) Pins(module string) ([]string, error) {
	k8s, ok := compatModules[module]
	if !ok {
		names := make([]string, 0, len(compatModules))
		for m := range compatModules {
			names = append(names, m)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("pins: no module %q (%s)", module, strings.Join(names, ", "))
	}
	if l.Has(Below) {
		return nil, fmt.Errorf("pins: line %s is below the floor: its controller-runtime is pinned by replace", l.Name)
	}
	flags := []string{"-require=sigs.k8s.io/controller-runtime@" + l.CR}
	for _, p := range k8s {
		flags = append(flags, "-require=k8s.io/"+p+"@"+l.K8s)
	}
	return flags, nil
}
