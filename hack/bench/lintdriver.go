package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
)

// LintDriver times the standalone statuspatch-lint against go vet
// -vettool=statuspatch-lint on examples/, warm caches (issue 51: goal <=
// 1.5x go vet's wall time): the command built once, each side run once to
// warm the build cache and go vet's result cache (keyed by the tool
// binary), then Pairs pairs in turn. Checker adds the full checker
// (STATUSPATCH_LINT_DRIVER=checker, the driver before issue 51) as a
// third side. Edit measures what a user pays after an edit instead: before
// each run a comment line is appended to examples/api/v1alpha1's
// rollout_types.go (every controller imports the package), so each side
// meets the edited package and its importers unbuilt; the file is put back
// at the end. Findings (exit status 3) are not failures.
type LintDriver struct {
	Root, Bin     string // Bin: where the command is built
	Pairs         int
	Checker, Edit bool
}

// A LintRun is one timed run of a side: seconds.
type LintRun struct {
	Side      string
	Wall, CPU float64
}

func (d LintDriver) sides() []LintRun {
	s := []LintRun{{Side: "standalone"}, {Side: "go-vet"}}
	if d.Checker {
		s = append(s, LintRun{Side: "checker"})
	}
	return s
}

func (d LintDriver) cmd(side string) Cmd {
	c := Cmd{Dir: filepath.Join(d.Root, "examples"), Args: []string{d.Bin, "./..."}}
	switch side {
	case "go-vet":
		c.Args = []string{"go", "vet", "-vettool=" + d.Bin, "./..."}
	case "checker":
		c.Env = []string{"STATUSPATCH_LINT_DRIVER=checker"}
	}
	return c
}

// Run builds, warms, times the pairs and prints the medians and ratios.
func (d LintDriver) Run(w io.Writer) error {
	if _, err := (Cmd{Dir: filepath.Join(d.Root, "cmd", "statuspatch-lint"), Args: []string{"go", "build", "-o", d.Bin, "."}}).Quiet(); err != nil {
		return err
	}
	edited := filepath.Join(d.Root, "examples", "api", "v1alpha1", "rollout_types.go")
	orig, err := os.ReadFile(edited)
	if err != nil {
		return err
	}
	defer func() { _ = os.WriteFile(edited, orig, 0o644) }()
	for _, s := range d.sides() {
		_, _ = d.cmd(s.Side).Run(io.Discard, io.Discard)
	}
	var runs []LintRun
	for range d.Pairs {
		for _, s := range d.sides() {
			if d.Edit {
				f, err := os.OpenFile(edited, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				fmt.Fprintf(f, "// edited: %s %d\n", s.Side, rand.Int64())
				if err := f.Close(); err != nil {
					return err
				}
			}
			u, _ := d.cmd(s.Side).Run(io.Discard, io.Discard)
			r := LintRun{s.Side, u.Wall.Seconds(), u.CPU.Seconds()}
			fmt.Fprintf(w, "%s %.2f %.2f\n", r.Side, r.Wall, r.CPU)
			runs = append(runs, r)
		}
	}
	after := ""
	if d.Edit {
		after = " after an edit"
	}
	fmt.Fprintf(w, "medians of %d runs (wall s, CPU s), examples/%s, %s, %d cores:\n", d.Pairs, after, runtime.Version(), runtime.NumCPU())
	for _, s := range d.sides() {
		wall, cpu := LintMedians(runs, s.Side)
		fmt.Fprintf(w, "%-10s wall %6.2f  cpu %6.2f\n", s.Side, wall, cpu)
	}
	for _, s := range d.sides() {
		if s.Side != "go-vet" {
			wall, cpu := LintRatios(runs, s.Side)
			fmt.Fprintf(w, "%s / go vet: wall %.2fx, cpu %.2fx (median of the pairs)\n", s.Side, wall, cpu)
		}
	}
	return nil
}

func ofSide(runs []LintRun, side string) []LintRun {
	var out []LintRun
	for _, r := range runs {
		if r.Side == side {
			out = append(out, r)
		}
	}
	return out
}

// LintMedians is a side's median wall and CPU seconds.
func LintMedians(runs []LintRun, side string) (wall, cpu float64) {
	var ws, cs []float64
	for _, r := range ofSide(runs, side) {
		ws, cs = append(ws, r.Wall), append(cs, r.CPU)
	}
	return Median(ws), Median(cs)
}

// LintRatios is the median of the pairs' ratios, the i-th run of side
// against the i-th go vet run.
func LintRatios(runs []LintRun, side string) (wall, cpu float64) {
	vet := ofSide(runs, "go-vet")
	var ws, cs []float64
	for i, r := range ofSide(runs, side) {
		if i < len(vet) && vet[i].Wall > 0 && vet[i].CPU > 0 {
			ws, cs = append(ws, r.Wall/vet[i].Wall), append(cs, r.CPU/vet[i].CPU)
		}
	}
	return Median(ws), Median(cs)
}
