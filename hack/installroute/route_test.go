package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestHostGoOK(t *testing.T) {
	// Versions built at run time are not lines: hack/lines' scan reads
	// this file.
	later, earlier := fmt.Sprintf("go1.%d.1", 31), fmt.Sprintf("go1.%d.3", 25)
	for v, want := range map[string]bool{"go1.26": true, "go1.26rc1": true, later: true, earlier: false, "go1.9.5": false, "devel": false, "": false} {
		if got := hostGoOK(v); got != want {
			t.Errorf("hostGoOK(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestEnviron(t *testing.T) {
	got := environ([]string{"A=1", "GOROOT=/g", "PATH=/bin", "KUBEBUILDER_ASSETS=/k", "B=2"}, []string{"GOROOT", "KUBEBUILDER_ASSETS"}, "PATH=/p:/bin", "GOTOOLCHAIN=path")
	want := []string{"A=1", "B=2", "PATH=/p:/bin", "GOTOOLCHAIN=path"}
	if !slices.Equal(got, want) {
		t.Errorf("environ = %q, want %q", got, want)
	}
}

// TestLookPathUsesTheUsersPath: the line's go, first in the user's PATH,
// runs, not the go of this process's PATH.
func TestLookPathUsesTheUsersPath(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	for _, d := range []string{first, second} {
		if err := os.WriteFile(filepath.Join(d, "go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=/nowhere", "PATH=" + first + ":" + second}
	if got := lookPath("go", env); got != filepath.Join(first, "go") {
		t.Errorf("lookPath(go) = %s, want %s (the last PATH setting, first folder)", got, filepath.Join(first, "go"))
	}
	if got := lookPath("./bin/x", env); got != "./bin/x" {
		t.Errorf("lookPath(./bin/x) = %s, want it unchanged", got)
	}
	if got := lookPath("absent", env); got != "absent" {
		t.Errorf("lookPath(absent) = %s, want the name", got)
	}
}
