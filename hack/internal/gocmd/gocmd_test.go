package gocmd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRel: -modfile= is the alternate go.mod relative to the folder the
// command runs in, as realpath --relative-to gives it.
func TestRel(t *testing.T) {
	for _, c := range []struct{ dir, path, want string }{
		{".", "hack/compat/x/root.mod", "hack/compat/x/root.mod"},
		{"testenv", "hack/compat/x/testenv.mod", "../hack/compat/x/testenv.mod"},
		{"cmd/statuspatch-gen/generator/testdata", "hack/compat/x/goldens.mod", "../../../../hack/compat/x/goldens.mod"},
		{"a/b", "a/b/go.mod", "go.mod"},
		{"./a/b/", "a/./b/../b/alt.mod", "alt.mod"},
		{"/r/a", "/r/hack/x.mod", "../hack/x.mod"},
	} {
		if got, err := Rel(c.dir, c.path); err != nil || got != c.want {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q", c.dir, c.path, got, err, c.want)
		}
	}
	if _, err := Rel("/r/a", "hack/x.mod"); err == nil {
		t.Errorf("Rel of a relative path to an absolute folder succeeded")
	}
}

// TestCmd: a command's arguments, environment and echo line.
func TestCmd(t *testing.T) {
	c := Cmd{Dir: "testenv", Toolchain: "go1.9.1", Verb: []string{"test"}, Modfile: "hack/compat/x/testenv.mod", Args: []string{"-vet=off", "./..."}}
	argv, err := c.Argv()
	if err != nil || strings.Join(argv, " ") != "test -modfile=../hack/compat/x/testenv.mod -vet=off ./..." {
		t.Errorf("Argv = %q, %v", argv, err)
	}
	if got := strings.Join(c.Env(), " "); got != "GOWORK=off GOTOOLCHAIN=go1.9.1" {
		t.Errorf("Env = %s", got)
	}
	if got, _ := c.Echo(); got != "+ (cd testenv && GOTOOLCHAIN=go1.9.1 go test -modfile=../hack/compat/x/testenv.mod -vet=off ./...)" {
		t.Errorf("Echo = %s", got)
	}
	ws := Cmd{Dir: ".", Workspace: true, Verb: []string{"list"}, Args: []string{"-m", "all"}}
	if got := ws.String(); got != "(cd . && go list -m all)" {
		t.Errorf("a workspace command with the caller's toolchain: %s", got)
	}
	if got, _ := ws.Echo(); got != "+ (cd . && go list -m all)" {
		t.Errorf("Echo = %s", got)
	}
	tidy := Cmd{Dir: "m", Verb: []string{"mod", "tidy", "-e"}, Modfile: "m/alt.mod"}
	if got := tidy.String(); got != "(cd m && GOWORK=off go mod tidy -e -modfile=alt.mod)" {
		t.Errorf("flags before -modfile: %s", got)
	}
}

// TestRunner: the command runs in Dir under Root with Env over the
// caller's environment, and a failure keeps the exit status.
func TestRunner(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a POSIX shell stands in for go")
	}
	dir := t.TempDir()
	writeGo(t, dir, `echo "$PWD $GOWORK $GOTOOLCHAIN $*"; echo err >&2; exit $EXIT`)
	t.Setenv("PATH", dir)
	t.Setenv("EXIT", "0")
	t.Setenv("GOWORK", "")
	r := Runner{Root: dir}
	out, err := r.Output(Cmd{Dir: ".", Toolchain: "go1.9.1", Verb: []string{"env"}})
	if err != nil || out != dir+" off go1.9.1 env\n" {
		t.Errorf("Output = %q, %v", out, err)
	}
	out, err = r.Combined(Cmd{Dir: dir, Workspace: true, Verb: []string{"version"}})
	if err != nil || out != dir+"   version\nerr\n" {
		t.Errorf("Combined = %q, %v", out, err)
	}
	t.Setenv("EXIT", "3")
	err = r.Run(Cmd{Dir: ".", Verb: []string{"vet"}, Args: []string{"./..."}})
	var exit *exec.ExitError
	if !errors.As(err, &exit) || ExitCode(err) != 3 || !strings.Contains(err.Error(), "(cd . && GOWORK=off go vet ./...)") {
		t.Errorf("a failing command: %v (exit %d), want its exit status 3 and the command", err, ExitCode(err))
	}
	// The runner's own settings go over the caller's, a Cmd's over both.
	t.Setenv("EXIT", "0")
	r.Env = []string{"GOWORK=/w/go.work", "GOTOOLCHAIN=go1.8.1"}
	out, err = r.Output(Cmd{Dir: ".", Verb: []string{"env"}})
	if err != nil || out != dir+" off go1.8.1 env\n" {
		t.Errorf("Output with the runner's Env = %q, %v", out, err)
	}
	out, err = r.Output(Cmd{Dir: ".", Workspace: true, Toolchain: "go1.9.1", Verb: []string{"env"}})
	if err != nil || out != dir+" /w/go.work go1.9.1 env\n" {
		t.Errorf("Output with the runner's Env and the Cmd's = %q, %v", out, err)
	}
	if ExitCode(errors.New("no go")) != 1 {
		t.Errorf("ExitCode of another error is not 1")
	}
}

// TestFake records what a route runs.
func TestFake(t *testing.T) {
	f := &Fake{Answer: func(c Cmd) (string, error) { return c.Verb[0], nil }}
	var g Go = f
	if out, _ := g.Output(Cmd{Dir: ".", Verb: []string{"list"}}); out != "list" {
		t.Errorf("Output = %q", out)
	}
	_ = g.Run(Cmd{Dir: "m", Verb: []string{"vet"}})
	if strings.Join(f.Ran, "; ") != "(cd . && GOWORK=off go list); (cd m && GOWORK=off go vet)" {
		t.Errorf("Ran = %q", f.Ran)
	}
}

// writeGo puts a shell script named go in dir.
func writeGo(t *testing.T, dir, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}
