package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gen declares a patcher in a package of its own (not a
// zz_generated.statuspatch.go, which the command would find on disk and
// pass as -patchers): wired, which imports it, is told to use it only
// through the analyzer's package fact.
const (
	genPkg = `package gen

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type DeploymentStatusPatcher struct{ obj *appsv1.Deployment }

func NewDeploymentStatusPatcher(c client.Client, obj *appsv1.Deployment) *DeploymentStatusPatcher {
	return &DeploymentStatusPatcher{obj}
}

func (p *DeploymentStatusPatcher) Flush(ctx context.Context) error { return nil }
`
	wiredPkg = `package wired

import (
	"context"

	"example.com/realmod/gen"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = gen.NewDeploymentStatusPatcher

func Write(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	return c.Status().Update(ctx, d)
}
`
	// helper reads a Deployment without the client: its fact (ParamsFact)
	// lets -fix move mover's write. Both drivers load it from source, the
	// export-data driver though it is a dependency in the build cache
	// that does not import the client (./mover names only mover).
	helperPkg = `package helper

import appsv1 "k8s.io/api/apps/v1"

func Name(d *appsv1.Deployment) string { return d.Namespace + "/" + d.Name }
`
	moverPkg = `package mover

import (
	"context"

	"example.com/realmod/gen"
	"example.com/realmod/helper"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = gen.NewDeploymentStatusPatcher

func Sync(ctx context.Context, c client.Client, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := c.Get(ctx, key, d); err != nil {
		return err
	}
	d.Status.Replicas = int32(len(helper.Name(d)))
	return c.Status().Update(ctx, d)
}
`
)

// factsModule is stubRealmod with fixable (a blind patch -fix locks), gen,
// wired, helper and mover, its dependencies compiled into the build cache (go build), as
// in a project that has been built once.
func factsModule(t *testing.T) string {
	t.Helper()
	mod := stubRealmod(t)
	for name, src := range map[string]string{
		"fixable/fixable.go": fixable, "gen/gen.go": genPkg, "wired/wired.go": wiredPkg,
		"helper/helper.go": helperPkg, "mover/mover.go": moverPkg,
	} {
		if err := os.MkdirAll(filepath.Join(mod, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... in %s: %v\n%s", mod, err, out)
	}
	return mod
}

// lintWith runs the built command in dir with the driver chosen
// (STATUSPATCH_LINT_DRIVER) and returns its stdout, its stderr without the
// export-data driver's summary line, the summary, and the exit status.
func lintWith(t *testing.T, dir, bin, driver string, args ...string) (stdout, stderr, summary string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", driverEnv+"="+driver)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(errOut.String(), "\n") {
		if strings.HasPrefix(l, "statuspatch-lint: export-data driver: ") {
			summary += l
			continue
		}
		kept = append(kept, l)
	}
	return out.String(), strings.Join(kept, ""), summary, code
}

// The one fact the drivers tell apart by design: the export-data driver
// analyzes the whole module (lint.ModuleAnalyzer) and knows that no
// package of it calls wired.Write; the full checker analyzes a package at
// a time and says so. asModule puts the driver's fact in place of the
// checker's, after checking the checker said exactly its own.
const (
	checkerWriteFact = "Write is exported and only this package is analyzed: a caller in another package would not be changed (statuspatch-lint -fix on the whole module moves it with them when every caller's write can move)"
	moduleWriteFact  = "Write is exported and no package of the module calls it: -fix does not change an API only other modules may use"
)

func asModule(t *testing.T, args []string, checker string) string {
	t.Helper()
	if strings.Contains(checker, "d is a parameter of Write: ") && !strings.Contains(checker, checkerWriteFact) {
		t.Errorf("%s: the checker's finding of wired.Write does not say %q:\n%s", strings.Join(args, " "), checkerWriteFact, checker)
	}
	return strings.ReplaceAll(checker, checkerWriteFact, moduleWriteFact)
}

// The export-data driver reports what the full checker reports, byte for
// byte (but for asModule's fact), in every mode, cross-package facts included: patchutil.NewPatch's
// verdict reaches audit's write through its object fact, and gen's
// patcher reaches wired's message through its package fact. Both facts
// are computed by the driver from source (gen and patchutil import the
// client); the stub k8s.io packages come from export data.
func TestExportDriverMatchesChecker(t *testing.T) {
	bin := buildLint(t)
	mod := factsModule(t)
	for _, args := range [][]string{
		{"./..."},
		{"-audit", "./..."},
		{"-ci", "-json", "./..."},
		{"-c=1", "./wired", "./controllers"},
		{"./mover"},
	} {
		wantOut, wantErr, _, wantCode := lintWith(t, mod, bin, "checker", args...)
		wantErr = asModule(t, args, wantErr)
		out, errOut, summary, code := lintWith(t, mod, bin, "export", args...)
		if out != wantOut || errOut != wantErr || code != wantCode {
			t.Errorf("%s: the export-data driver's exit status %d and output differ from the checker's (%d):\nstdout:\n%s\nstderr:\n%s\nchecker's stdout:\n%s\nchecker's stderr:\n%s",
				strings.Join(args, " "), code, wantCode, out, errOut, wantOut, wantErr)
		}
		if !regexp.MustCompile(`, the other [1-9][0-9]* from export data`).MatchString(summary) {
			t.Errorf("%s: the export-data driver loaded nothing from export data: %q", strings.Join(args, " "), summary)
		}
		if (args[0] == "-audit" || args[0] == "-ci") && !strings.Contains(out+errOut, "patchutil.NewPatch returns client.MergeFrom without optimistic lock") {
			t.Errorf("%s: patchutil's verdict (an object fact) is missing:\n%s%s", strings.Join(args, " "), out, errOut)
		}
		if args[0] == "./..." && !strings.Contains(errOut, "handwritten status write to Deployment: use DeploymentStatusPatcher (example.com/realmod/gen)") {
			t.Errorf("%s: gen's patcher (a package fact) is missing from wired's finding:\n%s", strings.Join(args, " "), errOut)
		}
		if args[0] == "./mover" && strings.Contains(errOut, "not moved to the patcher") {
			t.Errorf("%s: helper's fact is missing: mover's write would not move:\n%s", strings.Join(args, " "), errOut)
		}
	}
}

// -fix through the export-data driver edits the files exactly as through
// the full checker (each fix once, imports and formatting alike), and
// says the same.
func TestExportDriverFixMatchesChecker(t *testing.T) {
	bin := buildLint(t)
	// ./mover: helper, which mover's write moves by, is a dependency only.
	for _, args := range [][]string{{"-fix", "./..."}, {"-fix", "./mover"}} {
		byChecker, byExport := factsModule(t), factsModule(t)
		_, wantErr, _, wantCode := lintWith(t, byChecker, bin, "checker", args...)
		wantErr = asModule(t, args, wantErr)
		_, errOut, _, code := lintWith(t, byExport, bin, "export", args...)
		wantErr, errOut = strings.ReplaceAll(wantErr, byChecker, "$MOD"), strings.ReplaceAll(errOut, byExport, "$MOD")
		if errOut != wantErr || code != wantCode {
			t.Errorf("%s: exit status %d and output differ from the checker's (%d):\n%s\nchecker's:\n%s", strings.Join(args, " "), code, wantCode, errOut, wantErr)
		}
		if args[1] == "./..." && !strings.Contains(errOut, "fixable.go:13: fixed: add client.MergeFromWithOptimisticLock to the status patch") {
			t.Errorf("%s: the blind patch was not fixed:\n%s", strings.Join(args, " "), errOut)
		}
		if !strings.Contains(errOut, "mover.go:20: fixed: move the status write onto DeploymentStatusPatcher") {
			t.Errorf("%s: mover's write was not moved:\n%s", strings.Join(args, " "), errOut)
		}
		for _, name := range []string{"fixable/fixable.go", "audit/audit.go", "controllers/controllers.go", "wired/wired.go", "mover/mover.go"} {
			want, err := os.ReadFile(filepath.Join(byChecker, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(byExport, name))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s: %s after the export-data driver's fix differs from the checker's:\n%s\nchecker's:\n%s", strings.Join(args, " "), name, got, want)
			}
		}
	}
}

// Where the export-data driver does not apply the command runs the full
// checker: test files loaded (-tests), and an empty build cache (which go
// list -export would otherwise fill by compiling every dependency, as go
// vet does); STATUSPATCH_LINT_DRIVER=export says why instead.
func TestExportDriverDeclines(t *testing.T) {
	bin := buildLint(t)
	mod := factsModule(t)
	_, errOut, _, code := lintWith(t, mod, bin, "export", "-tests", "./...")
	if code != 1 || !strings.Contains(errOut, "the export-data driver does not apply: test files are loaded (-test)") {
		t.Errorf("-tests under STATUSPATCH_LINT_DRIVER=export: exit status %d, want 1 and why:\n%s", code, errOut)
	}
	_, wantErr, _, wantCode := lintWith(t, mod, bin, "checker", "./...")
	t.Setenv("GOCACHE", t.TempDir())
	_, errOut, _, code = lintWith(t, mod, bin, "", "./...")
	if code != wantCode || errOut != wantErr {
		t.Errorf("./... with an empty build cache: exit status %d, want the checker's %d and output:\n%s\nchecker's:\n%s", code, wantCode, errOut, wantErr)
	}
	if _, errOut, _, code = lintWith(t, mod, bin, "export", "./..."); code != 1 || !strings.Contains(errOut, "not in the build cache") {
		t.Errorf("./... with an empty build cache under STATUSPATCH_LINT_DRIVER=export: exit status %d, want 1 and why:\n%s", code, errOut)
	}
}

// After an edit of a package of the project (gen, which wired and mover
// import), the edited package and those importing it are not in the build
// cache, and go list says so in their dependencies' errors: the export-data
// driver still applies, loads them from source and reports what the
// checker reports. It declined before, and every run after an edit, -fix
// included, type-checked every dependency from source.
func TestExportDriverAfterAnEdit(t *testing.T) {
	bin := buildLint(t)
	mod := factsModule(t)
	gen := filepath.Join(mod, "gen", "gen.go")
	if err := os.WriteFile(gen, []byte(genPkg+"\n// edited\nfunc Edited() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"./..."}, {"./mover"}} {
		wantOut, wantErr, _, wantCode := lintWith(t, mod, bin, "checker", args...)
		wantErr = asModule(t, args, wantErr)
		out, errOut, summary, code := lintWith(t, mod, bin, "export", args...)
		if out != wantOut || errOut != wantErr || code != wantCode {
			t.Errorf("%s after an edit of gen: the export-data driver's exit status %d and output differ from the checker's (%d):\nstdout:\n%s\nstderr:\n%s\nchecker's stderr:\n%s",
				strings.Join(args, " "), code, wantCode, out, errOut, wantErr)
		}
		if !regexp.MustCompile(`, the other [1-9][0-9]* from export data`).MatchString(summary) {
			t.Errorf("%s after an edit of gen: the export-data driver loaded nothing from export data: %q", strings.Join(args, " "), summary)
		}
	}
}
