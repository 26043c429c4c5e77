package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionFlag: -version (and --version) prints the module version
// from the binary's build information, "(devel)" when there is none (a
// test binary, a build from a checkout), and nothing else; it is no
// unknown flag.
func TestVersionFlag(t *testing.T) {
	for _, flag := range []string{"-version", "--version"} {
		var out bytes.Buffer
		if err := run([]string{flag}, &out); err != nil {
			t.Fatalf("%s: %v", flag, err)
		}
		if want := "statuspatch-gen " + moduleVersion(debug.ReadBuildInfo()) + "\n"; out.String() != want {
			t.Errorf("%s printed %q, want %q", flag, out.String(), want)
		}
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/statuspatch/statuspatch/cmd/statuspatch-gen", Version: "v0.1.0"}}, true, "v0.1.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
		{&debug.BuildInfo{}, true, "(devel)"},
		{nil, false, "(devel)"},
	} {
		if got := moduleVersion(c.bi, c.ok); got != c.want {
			t.Errorf("moduleVersion(%+v, %v) = %q, want %q", c.bi, c.ok, got, c.want)
		}
	}
}

// TestVersionFlagInBinary: a built statuspatch-gen answers -version with
// exit status 0 (a build from this checkout: "(devel)").
func TestVersionFlagInBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds statuspatch-gen")
	}
	bin := filepath.Join(t.TempDir(), "statuspatch-gen")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "statuspatch-gen ") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("statuspatch-gen -version: %v\n%s", err, out)
	}
}
