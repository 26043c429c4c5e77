package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// starterTokenStub is starterTestdataStub for the token kinds: Ledger
// (generator/testdata/api/token/v1) with its status subresource.
var starterTokenStub = strings.Replace(starterTestdataStub,
	`gvk.Group == "plain.goldens.example.com" && gvk.Kind == "Widget"`,
	`gvk.Group == "token.goldens.example.com" && gvk.Kind == "Ledger"`, 1)

// ledgerReconciler is a kubebuilder reconciler of Ledger whose Reconcile
// reads l and then runs body.
func ledgerReconciler(body string) string {
	return `package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tokenv1 "example.com/goldens/api/v1"
)

type LedgerReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	l := &tokenv1.Ledger{}
	if err := r.Client.Get(ctx, req.NamespacedName, l); err != nil {
		return ctrl.Result{}, err
	}
	_ = fmt.Sprint
	` + body + `
}

// SetupWithManager sets up the controller with the Manager.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&tokenv1.Ledger{}).
		Named("ledger").
		Complete(r)
}
`
}

// TestStarterTestWithWriteToken: the starter test init writes for a kind
// whose status has a write token (+statuspatch:writeToken: Ledger of
// generator/testdata/api/token/v1, with its generated patcher) compiles
// and passes for a reconciler that takes a job through the patcher (the
// token it leaves on the object is the one the server stores, and two
// reconciles from one read store one decision), and
// TestLedgerDecidesOnce still fails on a blind patch of that kind. As in
// TestStarterTestCatchesUnsentStatus, testenv is stood in by
// controller-runtime's fake client: the token on a real server is the
// patcher's tests' (TestIssue71Token*).
func TestStarterTestWithWriteToken(t *testing.T) {
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
	copyTree(t, filepath.Join(goldenModule, "api", "token", "v1"), filepath.Join(dir, "api", "v1"), nil)
	writeFile(t, filepath.Join(dir, "testenvstub", "go.mod"), "module github.com/statuspatch/statuspatch/testenv\n\ngo 1.24.0\n")
	writeFile(t, filepath.Join(dir, "testenvstub", "testenv.go"), starterTokenStub)
	writeFile(t, filepath.Join(dir, "Makefile"), "")
	writeFile(t, filepath.Join(dir, "PROJECT"), `layout:
- go.kubebuilder.io/v4
repo: example.com/goldens
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  group: token
  kind: Ledger
  path: example.com/goldens/api/v1
  version: v1
`)
	ctrlFile := filepath.Join(dir, "internal", "controller", "ledger_controller.go")
	reconciler := func(body string) string {
		wired, why, err := wireForManager("internal/controller/ledger_controller.go", ledgerReconciler(body), "Ledger")
		if err != nil || why != "" {
			t.Fatalf("wireForManager: %q, %v:\n%s", why, err, wired)
		}
		return wired
	}
	takes := `p := tokenv1.NewLedgerStatusPatcher(r.Client, l)
	l.Status.Taken = append(l.Status.Taken, fmt.Sprintf("job-%d", len(l.Status.Taken)))
	l.Status.Count++
	return ctrl.Result{}, p.Flush(ctx)`
	writeFile(t, ctrlFile, reconciler(takes))
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel, content, note, err := starterTest(dir, proj)
	if err != nil || rel != "internal/controller/ledger_testenv_test.go" {
		t.Fatalf("starter test %q: %q, %v", rel, note, err)
	}
	notes, err := writeTokenNotes(dir, proj)
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "Ledger has a write token, LedgerStatus.WriteToken") {
		t.Fatalf("write token notes: %q, %v", notes, err)
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)

	for _, r := range []struct {
		name, body string
		twice      bool
	}{
		{"the patcher takes a job", takes, false},
		{"a blind patch", `base := l.DeepCopy()
	l.Status.Count++
	return ctrl.Result{}, r.Client.Status().Patch(ctx, l, client.MergeFrom(base))`, true},
	} {
		t.Run(r.name, func(t *testing.T) {
			writeFile(t, ctrlFile, reconciler(r.body))
			cmd := exec.Command("go", "test", "-vet=off", "-count=1", "-run", "^TestLedger(ReconcilerOnTestenv|DecidesOnce)$", "./internal/controller/")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off")
			out, err := cmd.CombinedOutput()
			switch {
			case r.twice && (err == nil || !strings.Contains(string(out), "made its decision again")):
				t.Errorf("TestLedgerDecidesOnce did not fail saying the decision was made again: %v\n%s", err, out)
			case !r.twice && err != nil:
				t.Errorf("the starter test failed: %v\n%s", err, out)
			}
		})
	}
}
