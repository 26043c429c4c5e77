package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// sample is a table of made-up lines (hack/lines' tests forbid naming
// real ones outside hack/lines.txt).
const sample = `v0.12 v0.12.0 v0.40.0 go1.8.1 1.40 floor
v0.13 v0.13.3 v0.41.4 go1.9.2 1.41 install
v0.14 v0.14.1 v0.42.6 go1.9.2 1.42 workspace
v0.11 v0.11.0 - go1.8.1 - below
`

func sampleLine(t *testing.T, name string) lines.Line {
	t.Helper()
	tab, err := lines.Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := tab.Select(name)
	if err != nil {
		t.Fatal(err)
	}
	return ls[0]
}

func echoes(t *testing.T, plan []action) string {
	t.Helper()
	var out []string
	for _, a := range plan {
		e, err := a.cmd.Echo()
		if err != nil {
			t.Fatal(err)
		}
		if a.errorsOnly {
			e += " [errors only]"
		}
		out = append(out, e)
	}
	return strings.Join(out, "\n")
}

// TestTestPlan: a line's tests, in compat.sh's order, each module with
// the line's Go and its alternate go.mod relative to its folder.
func TestTestPlan(t *testing.T) {
	want := `+ (cd . && GOTOOLCHAIN=go1.9.2 go vet -modfile=hack/compat/v0.13/root.mod ./...)
+ (cd . && GOTOOLCHAIN=go1.9.2 go test -modfile=hack/compat/v0.13/root.mod -vet=off -ldflags=-w -timeout 30m ./patcher/... ./patchertest/...)
+ (cd testenv && GOTOOLCHAIN=go1.9.2 go test -modfile=../hack/compat/v0.13/testenv.mod -vet=off -ldflags=-w -timeout 30m ./...)
+ (cd testenv/explore && GOTOOLCHAIN=go1.9.2 go test -modfile=../../hack/compat/v0.13/explore.mod -vet=off -ldflags=-w -timeout 30m ./...)
+ (cd cmd/statuspatch-gen/generator/testdata && GOTOOLCHAIN=go1.9.2 go vet -modfile=../../../../hack/compat/v0.13/goldens.mod ./...)
+ (cd cmd/statuspatch-gen/generator/testdata && GOTOOLCHAIN=go1.9.2 go test -modfile=../../../../hack/compat/v0.13/goldens.mod -vet=off -ldflags=-w -timeout 30m ./...)`
	plan := testPlan(sampleLine(t, "v0.13"))
	if got := echoes(t, plan); got != want {
		t.Errorf("test's plan:\n%s\nwant\n%s", got, want)
	}
	for _, a := range plan {
		if env := strings.Join(a.cmd.Env(), " "); env != "GOWORK=off GOTOOLCHAIN=go1.9.2" {
			t.Errorf("%s runs with %s, want GOWORK=off and the line's Go", a.cmd, env)
		}
	}
}

// TestBuildPlan: test's compile: both vets, then export data of what
// each module's tests build, printing packages in error only.
func TestBuildPlan(t *testing.T) {
	f := "-f {{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}"
	want := `+ (cd . && GOTOOLCHAIN=go1.8.1 go vet -modfile=hack/compat/v0.12/root.mod ./...)
+ (cd cmd/statuspatch-gen/generator/testdata && GOTOOLCHAIN=go1.8.1 go vet -modfile=../../../../hack/compat/v0.12/goldens.mod ./...)
+ (cd . && GOTOOLCHAIN=go1.8.1 go list -modfile=hack/compat/v0.12/root.mod -export -deps -test ` + f + ` ./patcher/... ./patchertest/...) [errors only]
+ (cd testenv && GOTOOLCHAIN=go1.8.1 go list -modfile=../hack/compat/v0.12/testenv.mod -export -deps -test ` + f + ` ./...) [errors only]
+ (cd testenv/explore && GOTOOLCHAIN=go1.8.1 go list -modfile=../../hack/compat/v0.12/explore.mod -export -deps -test ` + f + ` ./...) [errors only]
+ (cd cmd/statuspatch-gen/generator/testdata && GOTOOLCHAIN=go1.8.1 go list -modfile=../../../../hack/compat/v0.12/goldens.mod -export -deps -test ` + f + ` ./...) [errors only]`
	if got := echoes(t, buildPlan(sampleLine(t, "v0.12"))); got != want {
		t.Errorf("build's plan:\n%s\nwant\n%s", got, want)
	}
}

// newRoute is a route over a Fake, its output in out, its notes in notes,
// each line taking one second (two readings of the clock), run from a folder holding the sample table.
func newRoute(t *testing.T, answer func(gocmd.Cmd) (string, error)) (r *route, f *gocmd.Fake, out, notes *strings.Builder, table string) {
	t.Helper()
	f = &gocmd.Fake{Answer: answer}
	out, notes = &strings.Builder{}, &strings.Builder{}
	clock := time.Unix(0, 0)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	table = filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(table, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	return &route{g: f, out: out, notes: notes, now: now}, f, out, notes, table
}

// TestBuild: compat.sh build LINE: the progress lines, the echo before
// each command, export data's empty lines dropped, and the first failure
// ending the route with its exit status.
func TestBuild(t *testing.T) {
	r, f, out, notes, table := newRoute(t, func(c gocmd.Cmd) (string, error) {
		if c.Verb[0] == "list" && c.Dir == "testenv" {
			return "\n\nexample.com/broken: no Go files\n\n", nil
		}
		return "", nil
	})
	if code := r.main([]string{"build", "older"}, table); code != 0 {
		t.Fatalf("exit %d: %s", code, notes)
	}
	got := out.String()
	for _, want := range []string{
		"=== v0.12: compile (go1.8.1)\n+ (cd . && GOTOOLCHAIN=go1.8.1 go vet -modfile=hack/compat/v0.12/root.mod ./...)\n",
		"+ (cd testenv && GOTOOLCHAIN=go1.8.1 go list -modfile=../hack/compat/v0.12/testenv.mod -export -deps -test -f {{if .Error}}{{.ImportPath}}: {{.Error}}{{end}} ./...)\nexample.com/broken: no Go files\n+ (cd testenv/explore ",
		"=== v0.12 compiled in 1s\n=== v0.13: compile (go1.9.2)\n",
		"=== v0.13 compiled in 1s\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("build older's output lacks\n%s\nin\n%s", want, got)
		}
	}
	if len(f.Ran) != 12 || strings.Contains(got, "v0.14") {
		t.Errorf("build older ran %d commands (want 6 a line, the older lines only):\n%s", len(f.Ran), strings.Join(f.Ran, "\n"))
	}

	r, f, out, notes, table = newRoute(t, func(c gocmd.Cmd) (string, error) {
		if c.Dir == "testenv" {
			return "", errors.New("exit status 1")
		}
		return "", nil
	})
	if code := r.main([]string{"test", "v0.14", "v0.13"}, table); code != 1 {
		t.Errorf("a failing test: exit %d, want 1", code)
	}
	// v0.14, the workspace's line: go env GOVERSION twice for testenv
	// (failing: its tests run) and twice for the explorer, vet, the
	// runtime's tests, testenv's (failing).
	if len(f.Ran) != 7 || !strings.Contains(f.Ran[6], "go test -modfile=../hack/compat/v0.14/testenv.mod") || strings.Contains(out.String(), "passed") || strings.Contains(out.String(), "v0.13") {
		t.Errorf("the route went on after the failure: ran %q, printed\n%s", f.Ran, out)
	}
	if !strings.Contains(notes.String(), "compat: exit status 1") {
		t.Errorf("the failure is not said: %q", notes)
	}
}

// TestUsage: a usage or selection error exits 2 and runs nothing.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frob"}, "usage: hack/compat.sh update | test [LINE...] | build [LINE...]"},
		{[]string{"test", "v0.99"}, "compat: no line v0.99"},
		{[]string{"build", "below"}, "compat build: the line below the floor is tested"},
		{[]string{"update", "v0.12"}, "takes no selector"},
	} {
		r, f, _, notes, table := newRoute(t, nil)
		if code := r.main(c.args, table); code != 2 || len(f.Ran) != 0 || !strings.Contains(notes.String(), c.want) || strings.Contains(notes.String(), "compat: compat") {
			t.Errorf("%q: exit %d, ran %q, said %q; want exit 2, nothing run, %q", c.args, code, f.Ran, notes, c.want)
		}
	}
	for _, args := range [][]string{nil, {""}} {
		r, f, out, _, table := newRoute(t, func(c gocmd.Cmd) (string, error) {
			if c.Verb[0] == "build" {
				return "patcher/requires_controller_runtime_v0_12.go:1:2: undefined: client.ApplyOption\n", errors.New("exit status 1")
			}
			return "", nil
		})
		if code := r.main(args, table); code != 0 || len(f.Ran) != 3*6+2*2+1 || !strings.Contains(out.String(), "=== v0.14 passed in 1s\n=== below the floor") {
			t.Errorf("%q is test (every line, then below): exit %d, ran %d commands, printed\n%s", args, code, len(f.Ran), out)
		}
	}
}

// TestTestFlagsAreMakeTests: the line's go test flags are the Makefile's
// TEST_FLAGS, so a line's tests build and run as make test's do.
func TestTestFlagsAreMakeTests(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^TEST_FLAGS := (.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no TEST_FLAGS := line")
	}
	for _, a := range testPlan(sampleLine(t, "v0.13")) {
		if a.cmd.Verb[0] != "test" {
			continue
		}
		if got := strings.Join(a.cmd.Args[:len(a.cmd.Args)-len(pkgArgs(a.cmd.Args))], " "); got != string(m[1]) {
			t.Errorf("%s: flags %q, the Makefile's TEST_FLAGS %q", a.cmd, got, m[1])
		}
	}
}

// pkgArgs is the package patterns at the end of args (./...).
func pkgArgs(args []string) []string {
	i := len(args)
	for i > 0 && strings.HasPrefix(args[i-1], "./") {
		i--
	}
	return args[i:]
}
