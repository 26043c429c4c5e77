package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// compat.sh test below: the runtime must not build below the floor, and
// the first error must name the floor: the floor file
// (patcher/requires_controller_runtime_v0_NN.go) and its type.

// floorFile is the file of the runtime that fails first below the floor,
// and floorType its type, both named after the floor line (hack/lines.txt):
// requiresControllerRuntimeV0_NNAndK8sV0_MMOrNewer.
func floorFile(floor lines.Line) string {
	return "requires_controller_runtime_" + underscored(floor.Name) + ".go"
}

func floorType(floor lines.Line) string {
	up := func(v string) string { return "V" + strings.TrimPrefix(underscored(v), "v") }
	return "requiresControllerRuntime" + up(floor.Name) + "AndK8s" + up(floor.K8sMinor()) + "OrNewer"
}

// underscored is v0_NN of v0.NN.
func underscored(v string) string { return strings.ReplaceAll(v, ".", "_") }

// namesFloor reports whether the first error of a build's output (its
// first line with ".go:") is in the floor file and names its type, or
// the option type the floor's client gained (undefined below it).
func namesFloor(out string, floor lines.Line) bool {
	re := regexp.MustCompile(regexp.QuoteMeta(floorFile(floor)) + `:.*(` + regexp.QuoteMeta(floorType(floor)) + `|undefined: client\.ApplyOption)`)
	for line := range strings.Lines(out) {
		if strings.Contains(line, ".go:") {
			return re.MatchString(line)
		}
	}
	return false
}

// belowBuild is the build that must fail: the runtime's patcher with the
// line's Go and the go.mod pinning controller-runtime below the floor.
func belowBuild(l lines.Line) gocmd.Cmd {
	return gocmd.Cmd{Dir: ".", Toolchain: l.Toolchain, Verb: []string{"build"}, Modfile: modfile("below", "root"), Args: []string{"./patcher/"}}
}

// errFloorGone and errFloorUnnamed are the check's failures.
var (
	errFloorGone    = errors.New("the floor check is gone")
	errFloorUnnamed = errors.New("below the floor, the first error does not name the floor")
)

// testBelow builds below the floor, printing the command and its output.
func (r *route) testBelow(l, floor lines.Line) error {
	fmt.Fprintf(r.out, "=== below the floor: controller-runtime %s pinned by replace, %s\n", l.CR, l.Toolchain)
	c := belowBuild(l)
	echo, err := c.Echo()
	if err != nil {
		return err
	}
	out, err := r.g.Combined(c)
	out = strings.TrimRight(echo+"\n"+out, "\n")
	fmt.Fprintln(r.out, out)
	if err == nil {
		return fmt.Errorf("the runtime built with controller-runtime %s; %w", l.CR, errFloorGone)
	}
	if !namesFloor(out, floor) {
		return fmt.Errorf("%w (want %s and %s)", errFloorUnnamed, floorFile(floor), floorType(floor))
	}
	fmt.Fprintln(r.out, "=== below the floor: refused, naming the floor")
	return nil
}
