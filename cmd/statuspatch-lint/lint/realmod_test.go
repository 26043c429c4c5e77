package lint_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRealControllerRuntime runs the analyzer on code type-checked against
// the real sigs.k8s.io/controller-runtime (testdata/realmod is a module of
// its own), to prove the testdata stubs do not hide a mismatch.
func TestRealControllerRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks controller-runtime and k8s.io/api from source")
	}
	t.Setenv("GOWORK", "off") // realmod is its own module, not in the repository's workspace
	dir := filepath.Join(analysistest.TestData(), "realmod")
	// analysistest loads with GOPROXY=off: fill the module cache first.
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
	analysistest.Run(t, dir, lint.NewAnalyzer(lint.Config{}), "example.com/realmod/controllers")
	analysistest.Run(t, dir, lint.NewAnalyzer(lint.Config{Audit: true}), "example.com/realmod/audit")
}
