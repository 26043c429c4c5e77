package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// statuspatch-lint -fix on a small operator (testdata/e2e: a Rollout
// reconciler with a MergeFrom status patch, an Update, a helper whose
// file imports the client only for its MergeFrom, a write-only helper
// given a copy of a read, a server-side apply of an apply configuration,
// one in a helper given the object its caller read, and the patchers
// statuspatch-gen generated for it) moves the six writes onto the patcher
// (the applies onto its apply mode), drops the import left
// unused, and exits 0 with nothing left; the result compiles, and its test
// runs the reconciler on the real API server (testenv, embedded) and reads
// back what the server stored.
func TestFixMigratesAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds statuspatch-lint, type-checks the examples and compiles the API server")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	mod := filepath.Join(tmp, "e2e")
	bin := filepath.Join(tmp, "statuspatch-lint")
	runIn(t, ".", "go", "build", "-o", bin, ".")
	runIn(t, ".", "cp", "-r", "testdata/e2e", mod)
	runIn(t, ".", "cp", filepath.Join(root, "examples", "go.sum"), filepath.Join(mod, "go.sum"))
	runIn(t, ".", "cp", filepath.Join(root, "go.work.sum"), filepath.Join(tmp, "go.work.sum"))
	work := fmt.Sprintf("go 1.26.0\n\nuse (\n\t%[1]s\n\t%[1]s/testenv\n\t%[1]s/testenv/explore\n\t%[1]s/examples\n\t%[2]s\n)\n\nreplace (\n"+
		"\tgithub.com/statuspatch/statuspatch v0.1.0 => %[1]s\n"+
		"\tgithub.com/statuspatch/statuspatch/testenv v0.1.0 => %[1]s/testenv\n"+
		"\tgithub.com/statuspatch/statuspatch/testenv/explore v0.1.0 => %[1]s/testenv/explore\n"+
		"\tgithub.com/statuspatch/statuspatch/examples v0.1.0 => %[1]s/examples\n"+
		"\tgithub.com/statuspatch/statuspatch/cmd/statuspatch-gen v0.1.0 => %[1]s/cmd/statuspatch-gen\n"+
		"\tgithub.com/statuspatch/statuspatch/cmd/statuspatch-lint v0.1.0 => %[1]s/cmd/statuspatch-lint\n)\n", root, mod)
	if err := os.WriteFile(filepath.Join(tmp, "go.work"), []byte(work), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOWORK="+filepath.Join(tmp, "go.work"), "GOFLAGS=",
		"LINTFIX_E2E_CRDS="+filepath.Join(root, "examples", "config", "crd", "bases"))
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run(bin, "-fix", "./...")
	if err != nil || !strings.Contains(out, "statuspatch-lint: fixed 6 status writes; no findings left") {
		t.Fatalf("-fix ./...: %v, want exit status 0 and the six writes fixed:\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(mod, "controller", "controller.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"rolloutPatcher := patchers.NewRolloutStatusPatcher(r, rollout)",
		"if err := rolloutPatcher.Flush(ctx); err != nil {",
		"return rolloutPatcher.Flush(ctx)",
		`"github.com/statuspatch/statuspatch/examples/lintfixe2e/internal/patchers"`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixed controller lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), ".Status().") {
		t.Errorf("a handwritten status write is left:\n%s", src)
	}
	// status.go used the client package only for MergeFrom: its import goes.
	src, err = os.ReadFile(filepath.Join(mod, "controller", "status.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "roPatcher := patchers.NewRolloutStatusPatcher(r, ro)") || strings.Contains(string(src), "controller-runtime/pkg/client") {
		t.Errorf("status.go: want the write moved and the client import gone:\n%s", src)
	}
	// helper.go's write-only helper takes the patcher its caller makes
	// after copying a read.
	src, err = os.ReadFile(filepath.Join(mod, "controller", "helper.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ro := old.DeepCopy()\n\troPatcher := patchers.NewRolloutStatusPatcher(r, ro)",
		"return r.writeStatus(ctx, roPatcher)",
		"func (r *RolloutReconciler) writeStatus(ctx context.Context, roPatcher *patchers.RolloutStatusPatcher) error {\n\tro := roPatcher.Object()",
		"if err := roPatcher.Flush(ctx); err != nil {",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixed helper.go lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), ".Status().") {
		t.Errorf("a handwritten status write is left in helper.go:\n%s", src)
	}
	// plan.go's apply moves onto apply mode, with its field owner.
	src, err = os.ReadFile(filepath.Join(mod, "controller", "plan.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"rolloutPatcher := patchers.NewRolloutStatusPatcher(r, &rollout, patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner(\"rollout-planner\"))",
		"_ = rolloutPatcher.Patcher().ApplyStatus(ac.Status) // Flush returns its error too\n\treturn rolloutPatcher.Flush(ctx)",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixed plan.go lacks %q:\n%s", want, src)
		}
	}
	// verify.go's helper takes the patcher its caller makes in apply mode
	// after its Get.
	src, err = os.ReadFile(filepath.Join(mod, "controller", "verify.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"return err\n\t}\n\trolloutPatcher := patchers.NewRolloutStatusPatcher(r, rollout, patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner(string(verifierOwner)))",
		"return r.applyVerified(ctx, rolloutPatcher)",
		"func (r *RolloutReconciler) applyVerified(ctx context.Context, rolloutPatcher *patchers.RolloutStatusPatcher) error {\n\trollout := rolloutPatcher.Object()",
		"_ = rolloutPatcher.Patcher().ApplyStatus(ac.Status) // Flush returns its error too\n\treturn rolloutPatcher.Flush(ctx)",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixed verify.go lacks %q:\n%s", want, src)
		}
	}
	if out, err := run("gofmt", "-l", "."); err != nil || out != "" {
		t.Errorf("gofmt -l after -fix: %v\n%s", err, out)
	}
	if out, err := run("go", "test", "-vet=off", "-count=1", "./controller/"); err != nil {
		t.Fatalf("go test of the fixed controller: %v\n%s", err, out)
	}
}
