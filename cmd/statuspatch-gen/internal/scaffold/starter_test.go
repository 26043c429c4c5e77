package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// starterTestdataStub stands in for testenv in TestStarterTestCatchesUnsentStatus:
// controller-runtime's fake client (every kind of the project's group with
// a status subresource) instead of an API server, so the starter test's own
// logic runs without building one.
const starterTestdataStub = `package testenv

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

type Env struct{ Client client.Client }

type Option func(*runtime.Scheme) *runtime.Scheme

func WithCRDDirectory(string) Option { return func(s *runtime.Scheme) *runtime.Scheme { return s } }

func WithScheme(s *runtime.Scheme) Option { return func(*runtime.Scheme) *runtime.Scheme { return s } }

func WithFullAPI() Option { return func(s *runtime.Scheme) *runtime.Scheme { return s } }

func Start(t testing.TB, opts ...Option) *Env {
	var s *runtime.Scheme
	for _, o := range opts {
		s = o(s)
	}
	b := fake.NewClientBuilder().WithScheme(s)
	for gvk := range s.AllKnownTypes() {
		if gvk.Group == "plain.goldens.example.com" && gvk.Kind == "Widget" {
			obj, _ := s.New(gvk)
			b = b.WithStatusSubresource(obj.(client.Object))
		}
	}
	return &Env{Client: b.Build()}
}
`

// starterReconcilers are reconcilers the starter test runs: body is
// Reconcile's, after w (a Widget) is read with r.Client.Get. With
// fails, the starter test must fail saying the status did not land; with
// twice, TestWidgetDecidesOnce must fail saying the decision was made again.
var starterReconcilers = []struct {
	name, body   string
	fails, twice bool
}{
	{"writes", `w.Status.Phase = "Ready"
	return ctrl.Result{}, r.Client.Status().Update(ctx, w)`, false, false},
	// a patcher whose Flush is a no-op: the status is set, never sent
	{"flush is a no-op", `w.Status.Phase = "Ready"
	flush := func(context.Context) error { return nil }
	return ctrl.Result{}, flush(ctx)`, true, false},
	// kubebuilder's scaffold: the reconciler writes nothing yet
	{"writes nothing", `return ctrl.Result{}, nil`, false, false},
	// a write, a re-read into another object, a second write
	{"writes again after a re-read", `w.Status.Phase = "Started"
	if err := r.Client.Status().Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	again := &plainv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, again); err != nil {
		return ctrl.Result{}, err
	}
	again.Status.Replicas = 2
	return ctrl.Result{}, r.Client.Status().Update(ctx, again)`, false, false},
	{"second write missing after a re-read", `w.Status.Phase = "Started"
	if err := r.Client.Status().Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	again := &plainv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, again); err != nil {
		return ctrl.Result{}, err
	}
	again.Status.Replicas = 2
	return ctrl.Result{}, nil`, true, false},
	// a later write of another object (as a server-side apply of an
	// unstructured one does) sets a field this object never changed
	{"another object writes another field", `w.Status.Phase = "Ready"
	if err := r.Client.Status().Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	other := w.DeepCopy()
	other.Status.Replicas = 3
	return ctrl.Result{}, r.Client.Status().Update(ctx, other)`, false, false},
	// two reconciles that read the same object both write: decided twice
	{"a blind patch", `base := w.DeepCopy()
	w.Status.Phase = "Ready"
	return ctrl.Result{}, r.Client.Status().Patch(ctx, w, client.MergeFrom(base))`, false, true},
	// the same patch under the optimistic lock: the second is refused
	{"an optimistic patch", `base := w.DeepCopy()
	w.Status.Phase = "Ready"
	return ctrl.Result{}, r.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))`, false, false},
	// the same, its error returned in an aggregate, as cluster-api's
	// deferred patch does (reterr = kerrors.NewAggregate([]error{reterr,
	// err})): the refused one's Conflict is in it, and the test passes (at
	// ca5bcee it failed, "reconcile ...: ... the object has been modified",
	// apierrors.IsConflict not looking into the aggregate)
	{"an optimistic patch, its error in an aggregate", `base := w.DeepCopy()
	w.Status.Phase = "Ready"
	var reterr error
	if err := r.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		reterr = kerrors.NewAggregate([]error{reterr, fmt.Errorf("patching the status of %s: %w", req.NamespacedName, err)})
	}
	return ctrl.Result{}, reterr`, false, false},
}

// TestStarterTestCatchesUnsentStatus runs the starter test init writes
// (for a kind whose type has a Status field) against reconcilers that
// write their status, write none, or set one and never send it (Flush made
// a no-op): it passes for the first two and fails for the last, saying
// what the reconciler left and what the server stores; and its
// TestWidgetDecidesOnce (two reconciles of one object at once, a barrier
// after their first read) fails on a blind patch and passes on the same
// patch under the optimistic lock; for a reconciler that reads a
// ConfigMap it asks testenv.WithFullAPI() and passes. testenv is stood in
// by controller-runtime's fake client (starterTestdataStub); the golden
// module's go.mod and go.sum (generator/testdata) pin the rest.
func TestStarterTestCatchesUnsentStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with controller-runtime")
	}
	dir := t.TempDir()
	gomod, err := os.ReadFile(filepath.Join(goldenModule, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod := strings.ReplaceAll(string(gomod), "=> ../../../..", "=> "+repoRoot(t)) +
		"\nrequire github.com/statuspatch/statuspatch/testenv v0.0.0\n\nreplace github.com/statuspatch/statuspatch/testenv => ./testenvstub\n"
	writeFile(t, filepath.Join(dir, "go.mod"), mod)
	copyTree(t, filepath.Join(goldenModule, "go.sum"), filepath.Join(dir, "go.sum"), nil)
	copyTree(t, filepath.Join(goldenModule, "api", "plain", "v1"), filepath.Join(dir, "api", "v1"), nil)
	writeFile(t, filepath.Join(dir, "testenvstub", "go.mod"), "module github.com/statuspatch/statuspatch/testenv\n\ngo 1.24.0\n")
	writeFile(t, filepath.Join(dir, "testenvstub", "testenv.go"), starterTestdataStub)
	writeFile(t, filepath.Join(dir, "Makefile"), "") // readProject wants one
	writeFile(t, filepath.Join(dir, "PROJECT"), `layout:
- go.kubebuilder.io/v4
repo: example.com/goldens
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  group: plain
  kind: Widget
  path: example.com/goldens/api/v1
  version: v1
`)
	// kubebuilder's SetupWithManager, wired by init onto patcher.ForManager
	// (initmanager.go): every run below compiles the wired reconciler.
	reconciler := func(body string) string {
		src := reconcilerSource(body)
		wired, why, err := wireForManager("internal/controller/widget_controller.go", src, "Widget")
		if err != nil || why != "" || !strings.Contains(wired, `r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("widget"))`) {
			t.Fatalf("wireForManager: %q, %v:\n%s", why, err, wired)
		}
		return wired
	}
	ctrlFile := filepath.Join(dir, "internal", "controller", "widget_controller.go")

	writeFile(t, ctrlFile, reconciler(starterReconcilers[0].body))
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if proj.builtins, err = builtinKindUses(dir, "example.com/goldens"); err != nil || len(proj.builtins) > 0 {
		t.Fatalf("built-in kinds in a reconciler of its own kind only: %v, %v", proj.builtins, err)
	}
	rel, content, note, err := starterTest(dir, proj)
	if err != nil || rel == "" {
		t.Fatalf("no starter test: %q, %v", note, err)
	}
	if !strings.Contains(content, "reads.changed()") {
		t.Fatalf("the starter test for a kind with a Status field does not compare the status:\n%s", content)
	}
	if strings.Contains(content, "testenv.Start(t, testenv.WithFullAPI()") {
		t.Fatalf("the starter test of a reconciler of its own kind only asks for the full API:\n%s", content)
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
	vetModernize(t, dir, "./internal/controller/")

	for _, r := range starterReconcilers {
		t.Run(r.name, func(t *testing.T) {
			writeFile(t, ctrlFile, reconciler(r.body))
			cmd := exec.Command("go", "test", "-vet=off", "-count=1", "-run", "^TestWidget(ReconcilerOnTestenv|DecidesOnce)$", "./internal/controller/")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off") // a scratch module: go.sum gains what ctrl imports
			out, err := cmd.CombinedOutput()
			switch {
			case r.fails && err == nil:
				t.Errorf("the starter test passed:\n%s", out)
			case r.fails && !strings.Contains(string(out), "but the server stores"):
				t.Errorf("the starter test failed, but not saying the status did not land:\n%s", out)
			case r.twice && err == nil:
				t.Errorf("TestWidgetDecidesOnce passed on a blind write:\n%s", out)
			case r.twice && !strings.Contains(string(out), "made its decision again"):
				t.Errorf("the starter test failed, but not saying the decision was made again:\n%s", out)
			case !r.fails && !r.twice && err != nil:
				t.Errorf("the starter test failed: %v\n%s", err, out)
			}
		})
	}

	// A reconciler that reads a ConfigMap: the starter test asks for the
	// full API (testenv.WithFullAPI, here the stub's), says why, compiles
	// and passes.
	t.Run("uses a built-in kind", func(t *testing.T) {
		writeFile(t, ctrlFile, reconciler(`cm := &corev1.ConfigMap{}
	if err := r.Client.Get(ctx, req.NamespacedName, cm); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	w.Status.Phase = "Ready"
	return ctrl.Result{}, r.Client.Status().Update(ctx, w)`))
		if proj.builtins, err = builtinKindUses(dir, "example.com/goldens"); err != nil || len(proj.builtins) != 1 {
			t.Fatalf("built-in kinds: %v, %v", proj.builtins, err)
		}
		rel, content, note, err := starterTest(dir, proj)
		if err != nil || rel == "" {
			t.Fatalf("no starter test: %q, %v", note, err)
		}
		if !strings.Contains(content, "testenv.Start(t, testenv.WithFullAPI(), ") || !strings.Contains(note, "internal/controller/widget_controller.go:") {
			t.Fatalf("the starter test does not ask for the full API, or init does not say why (%q):\n%s", note, content)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
		cmd := exec.Command("go", "test", "-vet=off", "-count=1", "-run", "^TestWidget(ReconcilerOnTestenv|DecidesOnce)$", "./internal/controller/")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the starter test failed: %v\n%s", err, out)
		}
	})
}

// reconcilerSource is a kubebuilder reconciler of Widget whose Reconcile
// reads w and then runs body, with kubebuilder's SetupWithManager.
func reconcilerSource(body string) string {
	return `package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	plainv1 "example.com/goldens/api/v1"
)

// The bodies below that use none of them (a declaration of a built-in
// kind, no call on one).
var (
	_ = fmt.Errorf
	_ = kerrors.NewAggregate
	_ corev1.ConfigMap
)

type WidgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &plainv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	` + body + `
}

// SetupWithManager sets up the controller with the Manager.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&plainv1.Widget{}).
		Named("widget").
		Complete(r)
}
`
}

// vetModernize runs x/tools' modernize analyzers (the module's x/tools, the
// suite golangci-lint's modernize linter runs) on pkg in the module dir, as
// kubebuilder v4.15's .golangci.yml enables them (omitzero and newexpr
// off): the starter test init writes must pass the user's make lint, where
// a backwards index loop was slicesbackward's finding (issue 72).
func vetModernize(t *testing.T, dir, pkg string) {
	t.Helper()
	tool := filepath.Join(t.TempDir(), "modernize")
	build := exec.Command("go", "build", "-o", tool, "golang.org/x/tools/go/analysis/passes/modernize/cmd/modernize")
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build modernize: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", "-vettool="+tool, "-omitzero=false", "-newexpr=false", pkg)
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("modernize (golangci-lint's modernize, as kubebuilder's .golangci.yml enables it) reports the starter test: %v\n%s", err, out)
	}
}
