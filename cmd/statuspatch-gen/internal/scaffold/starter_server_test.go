package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// starterServerReconciler is a kubebuilder reconciler of Widget; what it
// decides is $STARTER_DECIDES's (one test binary runs every case):
//   - "same" (or unset): phase Ready under a blind merge patch from the
//     Widget it read, an idempotent decision: the second of two reconciles
//     from one read sends a patch that changes nothing, which the API
//     server answers with the resourceVersion it had, storing nothing;
//   - "anew": the same patch, with a replica count new on each reconcile (a
//     plan built twice): the second one's patch overwrites the first's;
//   - "number": issue 80's reconciler, an order number (in phase) handed out
//     from the first read, then written over a fresh read on a Conflict
//     (retry.RetryOnConflict, Get, set, Status().Update): the second
//     reconcile's number overwrites the first's, from a state it re-read;
//   - "number-kept": the same, keeping the number the fresh read has;
//   - "stamp": the same shape writing the time of its decision (RFC 3339, a
//     second apart, as metav1.Time stores it): a value that differs only in
//     time.
func starterServerReconciler() string {
	return `package controller

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/retry"
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
	decides := os.Getenv("STARTER_DECIDES")
	switch decides {
	case "number", "number-kept", "stamp":
		if w.Status.Phase != "" {
			return ctrl.Result{}, nil
		}
		d := decisions.Add(1)
		value := fmt.Sprintf("O-%d", d)
		if decides == "stamp" {
			value = time.Date(2026, 12, 1, 0, 0, int(d), 0, time.UTC).Format(time.RFC3339)
		}
		return ctrl.Result{}, retry.RetryOnConflict(retry.DefaultRetry, func() error {
			latest := &plainv1.Widget{}
			if err := r.Client.Get(ctx, req.NamespacedName, latest); err != nil {
				return err
			}
			if decides == "number-kept" && latest.Status.Phase != "" {
				return nil
			}
			latest.Status.Phase = value
			return r.Client.Status().Update(ctx, latest)
		})
	}
	base := w.DeepCopy()
	w.Status.Phase = "Ready"
	if decides == "anew" {
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
// error, and failed the first. It fails for issue 80's order number,
// decided on the first read and written over the other reconcile's after
// a re-read, naming the path, both values and both reconciles (at
// 3c17bcf8 it passed), and passes when the re-read's number is kept, and
// for a time of decision written the same way (logged: values that differ
// only in time). One test binary runs every case (starterServerReconciler).
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
		// fails: TestWidgetDecidesOnce fails saying so; logs: the test
		// passes and logs it
		fails, logs string
	}{
		{"same", "", ""},
		{"anew", "made its decision again", ""},
		{"number", oracleNumberSays, ""},
		{"number-kept", "", ""},
		{"stamp", "", "which differ only in time"},
	} {
		t.Run(c.decides, func(t *testing.T) {
			run := exec.Command(bin, "-test.count=1", "-test.v", "-test.run", "^TestWidget(ReconcilerOnTestenv|DecidesOnce)$")
			run.Dir = filepath.Join(dir, "internal", "controller")
			run.Env = append(env, "STARTER_DECIDES="+c.decides)
			out, err := run.CombinedOutput()
			switch {
			case c.fails != "" && (err == nil || !regexp.MustCompile(c.fails).Match(out)):
				t.Errorf("TestWidgetDecidesOnce did not fail saying %q: %v\n%s", c.fails, err, out)
			case c.fails == "" && err != nil:
				t.Errorf("the starter test failed on a reconciler that decides once: %v\n%s", err, out)
			case c.logs != "" && !strings.Contains(string(out), c.logs):
				t.Errorf("TestWidgetDecidesOnce did not log %q:\n%s", c.logs, out)
			}
		})
	}
}
