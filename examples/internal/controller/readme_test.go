package controller_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEUsageCompiles: README.md's "Using it" example, as written,
// compiles against the patcher statuspatch-gen generated for this module's
// Rollout kind (with the statement its first comment says goes into
// SetupWithManager, and a buildPlan of the right type). The example's
// lines are not copied here: a change to the README or to the generated
// API that breaks it fails this test.
func TestREADMEUsageCompiles(t *testing.T) {
	// README.md is outside this module: go test's cache sees it through
	// make test's digest of the pages (hack/docpages).
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST")
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n## Using it\n")
	if ok {
		_, rest, ok = strings.Cut(rest, "```go\n")
	}
	var block string
	if ok {
		block, _, ok = strings.Cut(rest, "```")
	}
	if !ok {
		t.Fatal("README.md has no ```go block under \"## Using it\"")
	}
	first, _, _ := strings.Cut(block, "\n")
	_, setup, ok := strings.Cut(first, "in SetupWithManager: ")
	if !ok {
		t.Fatalf("README.md's usage example no longer opens with the SetupWithManager line: %q", first)
	}

	src := `package readmeusage

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
	"github.com/statuspatch/statuspatch/patcher"
)

type RolloutReconciler struct{ Client client.Client }

func buildPlan(*v1alpha1.Rollout) *v1alpha1.RolloutPlan { return nil }

func (r *RolloutReconciler) SetupWithManager(mgr ctrl.Manager) {
	` + setup + `
}

` + block
	dir := t.TempDir()
	file := filepath.Join(dir, "usage.go")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	// The package is added by an overlay: nothing is written into the
	// checkout.
	pkgDir, err := filepath.Abs(filepath.Join("..", "readmeusage"))
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(pkgDir, "usage.go"): file}})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay", ov, "./internal/readmeusage")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README.md's usage example does not compile against examples/internal/patchers (go build: %v):\n%s\nthe file compiled:\n%s", err, out, src)
	}
}
