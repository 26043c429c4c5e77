package lint_test

import (
	"os/exec"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRealmodWants runs the analyzer on testdata/realmod, the module whose
// code the command's tests run on, and checks its // want lines: over a
// copy that requires the stubs (stubRequirements), as the command's tests
// do. Over the real sigs.k8s.io/controller-runtime and k8s.io modules,
// type-checked from source, this took 114 s at load 7 (go test -json);
// the command's TestStubsMatchRealControllerRuntime holds the stubs to
// the real modules (the same findings and fixes at the same offsets).
func TestRealmodWants(t *testing.T) {
	t.Setenv("GOWORK", "off") // realmod is its own module, not in the repository's workspace
	dir := t.TempDir()
	cmd := exec.Command("cp", "-r", "testdata/realmod/.", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("copying testdata/realmod: %v\n%s", err, out)
	}
	stubRequirements(t, dir)
	analysistest.Run(t, dir, lint.NewAnalyzer(lint.Config{}), "example.com/realmod/controllers")
	analysistest.Run(t, dir, lint.NewAnalyzer(lint.Config{Audit: true}), "example.com/realmod/audit")
}
