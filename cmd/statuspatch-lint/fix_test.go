package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixable is a package whose only status write is a blind patch -fix can
// make optimistic.
const fixable = `package fixable

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Write(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	base := d.DeepCopy()
	d.Status.Replicas = 1
	return c.Status().Patch(ctx, d, client.MergeFrom(base))
}
`

// statuspatch-lint -fix, as users run it, on realmod's code over the
// stubs (stubRealmod): it prints each fix at its write's file:line, then
// the findings left and a summary, and exits non-zero while findings
// remain (3, as without -fix), 0 when nothing is left.
func TestFixSaysWhatItDidAndWhatIsLeft(t *testing.T) {
	bin := buildLint(t)
	mod := stubRealmod(t)
	if err := os.MkdirAll(filepath.Join(mod, "fixable"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "fixable", "fixable.go"), []byte(fixable), 0o644); err != nil {
		t.Fatal(err)
	}

	// Default mode: the fixed writes are still handwritten, so they are
	// left too, with the writes that have no fix.
	out, code := lintIn(t, mod, bin, "-fix", "./...")
	for _, want := range []string{
		// Its base is older than the write of d at line 18: no lock.
		mod + "/audit/audit.go:19: kept: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (no fix: the base base is taken at line 17, before the write of d at line 18",
		mod + "/controllers/controllers.go:26: fixed: add client.MergeFromWithOptimisticLock to the status patch\n",
		mod + "/fixable/fixable.go:13: fixed: add client.MergeFromWithOptimisticLock to the status patch\n",
		mod + "/audit/audit.go:50: fixed: add .WithResourceVersion(deploy.ResourceVersion) to the status apply configuration (edit at " + mod + "/audit/audit.go:48)\n",
		mod + "/controllers/controllers.go:30:6: blind: Status().Apply of Deployment",
		// What -fix did to each finding, one line each: kept, with why.
		mod + "/controllers/controllers.go:30: kept: blind: Status().Apply of Deployment",
		// A write to client.Object is locked and stays a finding
		// (handwritten to an interface): locked, kept, not fixed.
		mod + "/controllers/controllers.go:45: locked, kept: handwritten status write to client.Object (an interface)",
		"statuspatch-lint: fixed 4 status writes, kept 8 (2 of them locked)",
		"; the findings above are left",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("-fix ./...: output lacks %q:\n%s", want, out)
		}
	}
	if code != 3 {
		t.Errorf("-fix ./...: exit status %d with findings left, want 3\n%s", code, out)
	}
	b, err := os.ReadFile(filepath.Join(mod, "fixable", "fixable.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})") {
		t.Errorf("fixable.go was not fixed:\n%s", b)
	}
	b, err = os.ReadFile(filepath.Join(mod, "audit", "audit.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "appsv1ac.Deployment(key.Name, key.Namespace).WithResourceVersion(deploy.ResourceVersion).\n") {
		t.Errorf("audit.go's status apply was not locked:\n%s", b)
	}

	// -ci: the fixed package has nothing left.
	out, code = lintIn(t, mod, bin, "-ci", "-fix", "./fixable")
	if code != 0 || !strings.Contains(out, "statuspatch-lint: fixed 0 status writes; no findings left") {
		t.Errorf("-ci -fix ./fixable after the fix: exit status %d, want 0 and no findings left:\n%s", code, out)
	}
}

// lintIn runs the built command in dir and returns its combined output and
// exit status.
func lintIn(t *testing.T, dir, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	return "", 0
}

// runIn runs name with args in dir and fails the test if it fails.
// What the commands read (the runtime, testenv and examples' modules, this
// module's testdata copied with cp, this command built with go build) is
// not read by the test process, so go test's result cache does not look
// at it: runIn reads STATUSPATCH_SOURCE_DIGEST, make test's digest of those
// modules (the Makefile), so a change there runs the tests again.
func runIn(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST")
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
}

// builtLint is the command built once for the package's tests (buildLint):
// 43 tests built it each into a folder of their own, 1.8 CPU-s a link.
var builtLint struct {
	once sync.Once
	dir  string // removed by TestMain
	bin  string
	err  error
}

// buildLint builds the command into a temporary folder, once for the
// package's tests (skipped with -short), and returns its path. Tests do
// not change the binary; a test that needs other build flags builds its
// own.
func buildLint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds statuspatch-lint")
	}
	b := &builtLint
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "statuspatch-lint-test-"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "statuspatch-lint")
		_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST") // runIn says why
		if out, err := exec.Command("go", "build", "-o", b.bin, ".").CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build -o %s .: %w\n%s", b.bin, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtLint.dir != "" {
		os.RemoveAll(builtLint.dir)
	}
	os.Exit(code)
}
