// Command compatroute is hack/compat.sh: the compatibility matrix
// (docs/compatibility.md), what users import built and tested at every
// controller-runtime / k8s.io / Go line statuspatch supports, each line
// with its own Go toolchain (from the module proxy). It runs from the
// repository's root.
//
//	compatroute update        regenerate hack/compat/<line>/*.mod from
//	                          hack/lines.txt
//	compatroute test [LINE..] test every line, or the named ones (a line,
//	                          or a selector of hack/lines.sh: older,
//	                          install ...), and "below": a module that pins
//	                          a line below the floor gets an error that
//	                          names the floor
//	compatroute build [LINE..] compile what test compiles at every line (or
//	                          the named ones) into the build cache, running
//	                          no test: go vet, and the export data of every
//	                          package and test package (go list -export);
//	                          no API server binary needed (.ci/run runs it
//	                          while make test-assets builds them)
//
// At each line: the runtime module's tests (patcher, patchertest) and vet;
// testenv's tests, the patcher's integration tests on the real API server
// among them; the golden module of statuspatch-gen (generated patchers)
// built, vetted and tested. Each module is tested through an alternate
// go.mod (go test -modfile) that requires that line's versions: the
// published go.mod files stay at the floor, the first line. Which lines a
// command runs at, and what each alternate go.mod requires, are
// hack/internal/lines' (Table.Compat, Line.Pins); the go commands of each
// step are plan.go's, as data.
//
// Exit status: 2 for a usage or selection error, else a failed go
// command's own (1 for any other failure, the floor check's among them).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

const usage = "usage: hack/compat.sh update | test [LINE...] | build [LINE...] (a LINE: hack/lines.txt's, or a selector of hack/lines.sh)"

func main() {
	r := &route{g: gocmd.Runner{Root: "."}, out: os.Stdout, notes: os.Stderr, now: time.Now}
	os.Exit(r.main(os.Args[1:], "hack/lines.txt"))
}

// A route runs the steps of one command.
type route struct {
	g     gocmd.Go
	out   io.Writer        // progress (=== lines), the go commands' echo lines
	notes io.Writer        // update's notes, failures
	now   func() time.Time // for each line's time
}

// main runs hack/compat.sh's command line (no command, or "": test) over the
// table in file, and returns the exit status.
func (r *route) main(args []string, file string) int {
	cmd := "test"
	if len(args) > 0 {
		if args[0] != "" {
			cmd = args[0]
		}
		args = args[1:]
	}
	switch cmd {
	case "update", "test", "build":
	default:
		fmt.Fprintln(r.notes, usage)
		return 2
	}
	tab, err := readTable(file)
	if err != nil {
		fmt.Fprintln(r.notes, "compat:", err)
		return 2
	}
	steps, err := tab.Compat(cmd, args...)
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "compat") { // Compat's own errors say "compat"
			msg = "compat: " + msg
		}
		fmt.Fprintln(r.notes, msg)
		return 2
	}
	floor, _ := tab.Role(lines.Floor)
	for _, s := range steps {
		if err := r.step(cmd, s, floor); err != nil {
			fmt.Fprintln(r.notes, "compat:", err)
			return gocmd.ExitCode(err)
		}
	}
	return 0
}

func readTable(file string) (lines.Table, error) {
	f, err := os.Open(file)
	if err != nil {
		return lines.Table{}, fmt.Errorf("the lines: %w", err)
	}
	defer f.Close()
	tab, err := lines.Parse(f)
	if err != nil {
		return lines.Table{}, fmt.Errorf("%s: %w", file, err)
	}
	return tab, nil
}

// step runs one step of the command: a supported line, or the line below
// the floor.
func (r *route) step(cmd string, s lines.Step, floor lines.Line) error {
	l := s.Line
	switch {
	case cmd == "update" && s.Kind == lines.Below:
		return r.updateBelow(l)
	case cmd == "update":
		return r.updateLine(l)
	case cmd == "test" && s.Kind == lines.Below:
		return r.testBelow(l, floor)
	case cmd == "test":
		start := r.now()
		fmt.Fprintf(r.out, "=== %s: controller-runtime %s, k8s.io %s, %s\n", l.Name, l.CR, l.K8s, l.Toolchain)
		if err := r.runAll(r.linePlan(l)); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "=== %s passed in %ds\n", l.Name, int(r.now().Sub(start).Seconds()))
	case cmd == "build" && s.Kind != lines.Below:
		start := r.now()
		fmt.Fprintf(r.out, "=== %s: compile (%s)\n", l.Name, l.Toolchain)
		if err := r.runAll(buildPlan(l)); err != nil {
			return err
		}
		fmt.Fprintf(r.out, "=== %s compiled in %ds\n", l.Name, int(r.now().Sub(start).Seconds()))
	default:
		return fmt.Errorf("%s has no step %s %s", cmd, s.Kind, l.Name)
	}
	return nil
}
