package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// TestNamesFloor: the matcher reads the first error only, and wants the
// floor file with its type, or the option type the floor's client gained.
func TestNamesFloor(t *testing.T) {
	floor := sampleLine(t, "floor")
	const head = "+ (cd . && GOTOOLCHAIN=go1.8.1 go build -modfile=hack/compat/below/root.mod ./patcher/)\n# github.com/statuspatch/statuspatch/patcher\n"
	for _, c := range []struct {
		out  string
		want bool
	}{
		{head + "patcher/requires_controller_runtime_v0_12.go:18:70: undefined: client.ApplyOption\npatcher/flush.go:3:1: x\n", true},
		{head + "patcher/requires_controller_runtime_v0_12.go:21:5: cannot use client.Client(nil) as requiresControllerRuntimeV0_12AndK8sV0_40OrNewer value\n", true},
		{head + "patcher/flush.go:3:1: undefined: client.ApplyOption\npatcher/requires_controller_runtime_v0_12.go:18:70: undefined: client.ApplyOption\n", false},
		{head + "patcher/requires_controller_runtime_v0_13.go:18:70: undefined: client.ApplyOption\n", false},
		{head + "patcher/requires_controller_runtime_v0_12.go:18:70: syntax error\n", false},
		{head + "go: updates to go.mod needed\n", false},
	} {
		if got := namesFloor(c.out, floor); got != c.want {
			t.Errorf("namesFloor = %v, want %v, of\n%s", got, c.want, c.out)
		}
	}
}

// TestFloorFile: the names namesFloor wants are the runtime's floor
// file and its type, for the floor of hack/lines.txt.
func TestFloorFile(t *testing.T) {
	tab, err := readTable(filepath.Join("..", "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	floor, _ := tab.Role(lines.Floor)
	file := filepath.Join("..", "..", "patcher", floorFile(floor))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the floor file of hack/lines.txt's floor: %v", err)
	}
	if !strings.Contains(string(b), "type "+floorType(floor)+" interface") {
		t.Errorf("%s declares no type %s", file, floorType(floor))
	}
}

// TestBelow: compat.sh test below passes when the build fails naming the
// floor, and fails (exit 1) when it builds or names something else.
func TestBelow(t *testing.T) {
	for _, c := range []struct {
		out, lastLine, note string
		err                 error
		code                int
	}{
		{"patcher/requires_controller_runtime_v0_12.go:18:70: undefined: client.ApplyOption\n", "=== below the floor: refused, naming the floor", "", errors.New("exit status 1"), 0},
		{"", "+ (cd . && GOTOOLCHAIN=go1.8.1 go build -modfile=hack/compat/below/root.mod ./patcher/)", "compat: the runtime built with controller-runtime v0.11.0; the floor check is gone", nil, 1},
		{"patcher/flush.go:3:1: undefined: x\n", "patcher/flush.go:3:1: undefined: x", "compat: below the floor, the first error does not name the floor", errors.New("exit status 1"), 1},
	} {
		r, f, out, notes, table := newRoute(t, func(gocmd.Cmd) (string, error) { return c.out, c.err })
		code := r.main([]string{"test", "below"}, table)
		lastLine := strings.TrimSuffix(out.String(), "\n")
		lastLine = lastLine[strings.LastIndex(lastLine, "\n")+1:]
		if code != c.code || lastLine != c.lastLine || !strings.Contains(notes.String(), c.note) || len(f.Ran) != 1 {
			t.Errorf("exit %d, printed\n%s\nsaid %q; want exit %d, ending %q, saying %q", code, out, notes, c.code, c.lastLine, c.note)
		}
		if !strings.HasPrefix(out.String(), "=== below the floor: controller-runtime v0.11.0 pinned by replace, go1.8.1\n+ (cd . && GOTOOLCHAIN=go1.8.1 go build") {
			t.Errorf("below's output begins\n%s", out)
		}
	}
}
