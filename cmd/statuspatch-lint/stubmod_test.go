package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/stubmod"
)

// realmod is the module whose code the command's tests run on: it
// requires the real sigs.k8s.io/controller-runtime and k8s.io modules.
const realmod = "lint/testdata/realmod"

// stubRealmod returns a copy of realmod, same module path and same files,
// whose controller-runtime and k8s.io modules are the analyzer's stubs
// (lint/testdata/src/<module path>, each with a go.mod of its own),
// replaced in by absolute path. The checker type-checks every dependency
// from source: a standalone run on this copy type-checks a few small
// packages, where one on realmod type-checks controller-runtime and
// k8s.io. TestStubsMatchRealControllerRuntime checks that the command
// reports the same on both.
func stubRealmod(t *testing.T) string {
	t.Helper()
	stubs, err := filepath.Abs(filepath.Join("lint", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	runIn(t, realmod, "cp", "-r", ".", mod)
	data, err := os.ReadFile(filepath.Join(mod, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := stubmod.GoMod(data, stubs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(mod, "go.sum")); err != nil {
		t.Fatal(err)
	}
	return mod
}

// The stubs the command's tests run on (stubRealmod) give the command the
// same findings and the same fixes, at the same offsets, as the real
// controller-runtime and k8s.io: the one standalone run of these tests on
// realmod itself (TestFixMigratesAndRuns runs -fix on the real modules
// too, in a workspace of this checkout).
func TestStubsMatchRealControllerRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds statuspatch-lint and type-checks controller-runtime")
	}
	bin := filepath.Join(t.TempDir(), "statuspatch-lint")
	runIn(t, ".", "go", "build", "-o", bin, ".")
	real := t.TempDir()
	runIn(t, realmod, "cp", "-r", ".", real)
	stub := stubRealmod(t)

	realOut, realCode := lintIn(t, real, bin, "-audit", "-json", "./...")
	if realCode != 0 || !strings.Contains(realOut, "patchutil.NewPatch returns client.MergeFrom without optimistic lock") ||
		!strings.Contains(realOut, `"add .WithResourceVersion(deploy.ResourceVersion) to the status apply configuration"`) {
		t.Fatalf("-audit -json ./... on realmod: exit status %d, want 0, patchutil's verdict through its fact and the apply fix:\n%s", realCode, realOut)
	}
	stubOut, stubCode := lintIn(t, stub, bin, "-audit", "-json", "./...")
	realOut, stubOut = strings.ReplaceAll(realOut, real, "$MOD"), strings.ReplaceAll(stubOut, stub, "$MOD")
	if stubCode != realCode || stubOut != realOut {
		t.Errorf("-audit -json ./... on the stubs: exit status %d, want %d and the same output as on realmod\nstubs:\n%s\nrealmod:\n%s", stubCode, realCode, stubOut, realOut)
	}
}
