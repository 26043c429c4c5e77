package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// starterWidgetCRD is the Widget CRD of generator/testdata/api/plain/v1, as
// controller-gen writes it without descriptions, with its status
// subresource.
const starterWidgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.plain.goldens.example.com
spec:
  group: plain.goldens.example.com
  names:
    kind: Widget
    listKind: WidgetList
    plural: widgets
    singular: widget
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            properties:
              size:
                type: integer
                format: int32
          status:
            type: object
            properties:
              phase:
                type: string
              replicas:
                type: integer
                format: int32
`

// starterServerReconciler is a kubebuilder reconciler of Widget that
// patches its status without the optimistic lock (a blind merge patch) from
// the Widget it read. $STARTER_DECIDES picks what it sets: "same" (or
// unset), phase Ready, an idempotent decision, so the second of two
// reconciles from one read sends a patch that changes nothing, which the
// API server answers with the resourceVersion it had and stores nothing;
// "anew", a replica count new on each reconcile (a plan built twice), so
// the second one's patch overwrites the first's.
func starterServerReconciler() string {
	return `package controller

import (
	"context"
	"os"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	plainv1 "example.com/goldens/api/v1"
)

// decisions counts the plans built, one a reconcile.
var decisions atomic.Int32

type WidgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &plainv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Phase = "Ready"
	if os.Getenv("STARTER_DECIDES") == "anew" {
		w.Status.Replicas = decisions.Add(1)
	}
	return ctrl.Result{}, r.Client.Status().Patch(ctx, w, client.MergeFrom(base))
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

// starterServerModule writes, in dir, the go.mod of a project on the
// workspace's line (examples/go.mod's requirements, with its go.sum) and a
// go.work over it and this checkout's modules (the repository's go.work,
// its folders made absolute), so the project builds testenv from the
// checkout with what make test compiled (as TestFixMigratesAndRuns does in
// statuspatch-lint). It returns the go.work's path.
func starterServerModule(t *testing.T, root, dir string) string {
	t.Helper()
	name := filepath.Join(root, "examples", "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse(name, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range mod.Tool {
		if err := mod.DropTool(tl.Path); err != nil {
			t.Fatal(err)
		}
	}
	if err := mod.AddModuleStmt("example.com/goldens"); err != nil {
		t.Fatal(err)
	}
	out, err := mod.Format()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), string(out))
	copyTree(t, filepath.Join(root, "examples", "go.sum"), filepath.Join(dir, "go.sum"), nil)

	name = filepath.Join(root, "go.work")
	if data, err = os.ReadFile(name); err != nil {
		t.Fatal(err)
	}
	work, err := modfile.ParseWork(name, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, u := range work.Use {
		uses = append(uses, u.Path)
	}
	for _, u := range uses {
		if err := work.DropUse(u); err != nil {
			t.Fatal(err)
		}
		if err := work.AddUse(filepath.Join(root, u), ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := work.AddUse(dir, ""); err != nil {
		t.Fatal(err)
	}
	for _, r := range work.Replace {
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			if err := work.AddReplace(r.Old.Path, r.Old.Version, filepath.Join(root, r.New.Path), ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	gowork := filepath.Join(t.TempDir(), "go.work")
	writeFile(t, gowork, string(modfile.Format(work.Syntax)))
	copyTree(t, filepath.Join(root, "go.work.sum"), filepath.Join(filepath.Dir(gowork), "go.work.sum"), nil)
	return gowork
}

// TestStarterTestOnTheServer runs the starter test init writes on testenv's
// in-process API server (the checkout's, embedded), where a status write
// that changes nothing is answered with the resourceVersion the object had
// and stores nothing (controller-runtime's fake client, under
// TestStarterTestCatchesUnsentStatus, moves the resourceVersion on every
// write). TestWidgetDecidesOnce passes for a reconciler whose blind patch
// sets the same phase on every reconcile (two reconciles from one read:
// the second's patch is a no-op, one write stored), and fails for the same
// patch of a replica count new on each reconcile (two stored: the decision
// made again). Until 08c00c6 it counted every write that returned no
// error, and failed the first. One test binary runs both cases (the
// reconciler reads $STARTER_DECIDES).
func TestStarterTestOnTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testenv's API server into a project's test binary")
	}
	root := repoRoot(t)
	dir := t.TempDir()
	gowork := starterServerModule(t, root, dir)
	copyTree(t, filepath.Join(goldenModule, "api", "plain", "v1"), filepath.Join(dir, "api", "v1"), nil)
	writeFile(t, filepath.Join(dir, "config", "crd", "bases", "plain.goldens.example.com_widgets.yaml"), starterWidgetCRD)
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
	ctrlFile := filepath.Join(dir, "internal", "controller", "widget_controller.go")
	wired, why, err := wireForManager("internal/controller/widget_controller.go", starterServerReconciler(), "Widget")
	if err != nil || why != "" {
		t.Fatalf("wireForManager: %q, %v:\n%s", why, err, wired)
	}
	writeFile(t, ctrlFile, wired)
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel, content, note, err := starterTest(dir, proj)
	if err != nil || rel == "" {
		t.Fatalf("no starter test: %q, %v", note, err)
	}
	if !strings.Contains(content, `testenv.WithCRDDirectory("../../config/crd")`) || strings.Contains(content, "testenv.Start(t, testenv.WithFullAPI()") {
		t.Fatalf("the starter test does not start testenv on the project's CRDs only:\n%s", content)
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)

	env := append(os.Environ(), "GOWORK="+gowork, "GOFLAGS=")
	bin := filepath.Join(t.TempDir(), "controller.test")
	build := exec.Command("go", "test", "-c", "-vet=off", "-ldflags=-w", "-o", bin, "./internal/controller/")
	build.Dir, build.Env = dir, env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	for _, c := range []struct {
		decides string
		twice   bool
	}{
		{"same", false},
		{"anew", true},
	} {
		t.Run(c.decides, func(t *testing.T) {
			run := exec.Command(bin, "-test.count=1", "-test.run", "^TestWidget(ReconcilerOnTestenv|DecidesOnce)$")
			run.Dir = filepath.Join(dir, "internal", "controller")
			run.Env = append(env, "STARTER_DECIDES="+c.decides)
			out, err := run.CombinedOutput()
			switch {
			case c.twice && (err == nil || !strings.Contains(string(out), "made its decision again")):
				t.Errorf("TestWidgetDecidesOnce did not fail saying the decision was made again: %v\n%s", err, out)
			case !c.twice && err != nil:
				t.Errorf("the starter test failed on an idempotent reconciler: %v\n%s", err, out)
			}
		})
	}
}
