package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The module the exported helper's tests share (exportedhelper_test.go,
// exportedchain_test.go, exportedunsent_test.go): its packages, its
// builder, and running -fix on it.

// An exported write-only helper in a package of its own, called from
// reconcilers in two other packages after their Get, and a patcher with
// the generated API's Object and Flush.
const (
	kindpatchPkg = `package kindpatch

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type DeploymentStatusPatcher struct{ obj *appsv1.Deployment }

func NewDeploymentStatusPatcher(c client.Client, obj *appsv1.Deployment) *DeploymentStatusPatcher {
	return &DeploymentStatusPatcher{obj}
}

func (p *DeploymentStatusPatcher) Object() *appsv1.Deployment { return p.obj }

func (p *DeploymentStatusPatcher) Flush(ctx context.Context) error { return nil }

func (p *DeploymentStatusPatcher) Retry(ctx context.Context, mutate func(*appsv1.Deployment) error) error {
	return mutate(p.obj)
}

func FetchDeploymentStatusPatcher(ctx context.Context, c client.Client, key client.ObjectKey) (*DeploymentStatusPatcher, error) {
	obj := &appsv1.Deployment{}
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, err
	}
	return NewDeploymentStatusPatcher(c, obj), nil
}

func FetchDeploymentStatusPatcherInto(ctx context.Context, c client.Client, key client.ObjectKey, obj *appsv1.Deployment) (*DeploymentStatusPatcher, error) {
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, err
	}
	return NewDeploymentStatusPatcher(c, obj), nil
}
`
	statusPkg = `package status

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

// MarkFailed records why the rollout failed.
func MarkFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, reason string) error {
	d.Status.Replicas = int32(len(reason))
	return c.Status().Update(ctx, d)
}
`
	// callerHead is a caller's package NAME up to its Get of d, in Sync
	// (IMPORTS: more imports); callerPkg and callerPatcherPkg
	// (exportedexisting_test.go) go on from there.
	callerHead = `package NAME

import (
	"context"
IMPORTS
	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
`
	// callerPkg hands d to the helper.
	callerPkg = callerHead + `	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`
	// blindPkg calls it with an object it did not read.
	blindPkg = `package blind

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Fail(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	return status.MarkFailed(ctx, c, d, "given")
}
`
	statusTest = `package status_test

import (
	"context"
	"testing"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
)

func TestMarkFailed(t *testing.T) {
	_ = status.MarkFailed(context.Background(), nil, &appsv1.Deployment{}, "x")
}
`
)

// exportedHelperModule is stubRealmod with kindpatch, status and two
// callers (ctrla, ctrlb), plus extra files, built once.
func exportedHelperModule(t *testing.T, extra map[string]string) string {
	t.Helper()
	mod := stubRealmod(t)
	files := map[string]string{
		"kindpatch/kindpatch.go": kindpatchPkg, "status/status.go": statusPkg,
		"ctrla/ctrla.go": callerIn(callerPkg, "ctrla", ""),
		"ctrlb/ctrlb.go": callerIn(callerPkg, "ctrlb", ""),
	}
	for name, src := range extra {
		files[name] = src
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Join(mod, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range files {
		if strings.Contains(src, `"github.com/statuspatch/statuspatch/patcher"`) {
			requireStubPatcher(t, mod) // ifacecall_test.go
			break
		}
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... in %s: %v\n%s", mod, err, out)
	}
	return mod
}

// callerIn is src (callerHead's continued) as package name, with
// imports (one a line, tab-indented) before the module's own.
func callerIn(src, name, imports string) string {
	return strings.NewReplacer("NAME", name, "IMPORTS\n", "\n"+imports).Replace(src)
}

// optsKindpatchPkg is kindpatchPkg whose constructor takes options, as
// statuspatch-gen's does.
var optsKindpatchPkg = strings.Replace(strings.Replace(kindpatchPkg,
	"func NewDeploymentStatusPatcher(c client.Client, obj *appsv1.Deployment) *DeploymentStatusPatcher {",
	"func NewDeploymentStatusPatcher(c client.Client, obj *appsv1.Deployment, opts ...patcher.Option) *DeploymentStatusPatcher {", 1),
	`appsv1 "k8s.io/api/apps/v1"`, `"github.com/statuspatch/statuspatch/patcher"
	appsv1 "k8s.io/api/apps/v1"`, 1)

// fixExported builds exportedHelperModule with extra, runs bin -fix on
// its ./... with the export-data driver, and fails the test for each of
// wants the output lacks. It returns the module and the output.
func fixExported(t *testing.T, bin string, extra map[string]string, wants ...string) (mod, out string) {
	t.Helper()
	mod = exportedHelperModule(t, extra)
	_, out, _, _ = lintWith(t, mod, bin, "export", "-fix", "./...")
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("-fix: output lacks %q:\n%s", want, out)
		}
	}
	return mod, out
}

// vetFixed fails the test when go vet ./... (which builds) fails in mod
// after -fix.
func vetFixed(t *testing.T, mod string) {
	t.Helper()
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet ./... after -fix: %v\n%s", err, out)
	}
}

// matchGoldens fails the test for each of names (module paths) in mod
// that differs from testdata/exportedhelper/<dir>/<prefix><name, its
// slashes underscores>.golden; UPDATE_GOLDEN=1 writes them instead.
func matchGoldens(t *testing.T, mod, dir, prefix string, names ...string) {
	t.Helper()
	for _, name := range names {
		golden := filepath.Join("testdata", "exportedhelper", dir, prefix+strings.ReplaceAll(name, "/", "_")+".golden")
		got := readIn(t, mod, name)
		if os.Getenv("UPDATE_GOLDEN") != "" {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if want := readIn(t, ".", golden); got != want {
			t.Errorf("%s after -fix differs from %s:\n%s", name, golden, got)
		}
	}
}

func readIn(t *testing.T, mod, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mod, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
