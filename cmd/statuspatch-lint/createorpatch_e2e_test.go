package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 80 (project E): a CreateOrPatch whose mutate numbers the object
// in its status, run twice at once on the real API server (testenv,
// embedded), stores one reconcile's number over the other's: the
// module's test fails before -fix. -fix moves the numbering into
// NewRolloutStatusPatcher(c, ro).Retry after the call, the number handed
// out once (sync.OnceValue); -ci then reports nothing, and the same
// test passes: the second reconcile's write conflicts, it reads again,
// and keeps the number the first stored.
func TestFixCreateOrPatchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds statuspatch-lint and compiles the API server")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	mod := filepath.Join(tmp, "createorpatch")
	bin := filepath.Join(tmp, "statuspatch-lint")
	runIn(t, ".", "go", "build", "-o", bin, ".")
	runIn(t, ".", "cp", "-r", "testdata/createorpatch", mod)
	runIn(t, ".", "cp", filepath.Join(root, "examples", "go.sum"), filepath.Join(mod, "go.sum"))
	runIn(t, ".", "cp", filepath.Join(root, "go.work.sum"), filepath.Join(tmp, "go.work.sum"))
	var replace strings.Builder
	for _, m := range []string{"", "/testenv", "/testenv/explore", "/examples", "/cmd/statuspatch-gen", "/cmd/statuspatch-lint"} {
		fmt.Fprintf(&replace, "\tgithub.com/statuspatch/statuspatch%s v0.1.0 => %s%s\n", m, root, m)
	}
	work := fmt.Sprintf("go 1.26.0\n\nuse (\n\t%[1]s\n\t%[1]s/testenv\n\t%[1]s/testenv/explore\n\t%[1]s/examples\n\t%[2]s\n)\n\nreplace (\n%[3]s)\n", root, mod, replace.String())
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

	if out, err := run("go", "test", "-vet=off", "-count=1", "./register/"); err == nil || !strings.Contains(out, "and the server stored") {
		t.Fatalf("go test before -fix: %v, want the second number stored over the first:\n%s", err, out)
	}
	if out, err := run(bin, "-ci", "./..."); err == nil || !strings.Contains(out, "blind: controllerutil.CreateOrPatch of Rollout") {
		t.Fatalf("-ci before -fix: %v, want the blind CreateOrPatch reported:\n%s", err, out)
	}
	if out, err := run(bin, "-fix", "./..."); err != nil || !strings.Contains(out, "no findings left") {
		t.Fatalf("-fix ./...: %v, want exit status 0 and nothing left:\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(mod, "register", "register.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"op, err := controllerutil.CreateOrPatch(ctx, c, ro, func() error {\n\t\tif ro.Labels == nil {",
		"if err == nil && op != controllerutil.OperationResultCreated {\n\t\tidsAdd := sync.OnceValue(func() int64 { return ids.Add(1) })\n" +
			"\t\terr = patchers.NewRolloutStatusPatcher(c, ro).Retry(ctx, func(ro *v1alpha1.Rollout) error {\n" +
			"\t\t\tif ro.Status.CompletedSteps == 0 {\n\t\t\t\tro.Status.CompletedSteps = int32(idsAdd())\n\t\t\t}\n\t\t\treturn nil\n\t\t})\n\t}",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the fixed register.go lacks %q:\n%s", want, src)
		}
	}
	if out, err := run("gofmt", "-l", "."); err != nil || out != "" {
		t.Errorf("gofmt -l after -fix: %v\n%s", err, out)
	}
	if out, err := run(bin, "-ci", "./..."); err != nil {
		t.Errorf("-ci after -fix: %v, want nothing reported:\n%s", err, out)
	}
	if out, err := run("go", "test", "-vet=off", "-count=1", "./register/"); err != nil {
		t.Fatalf("go test of the fixed register: %v\n%s", err, out)
	}
}
