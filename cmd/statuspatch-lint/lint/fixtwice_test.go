package lint_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// fixTwice runs -fix a second time over the first run's output: the
// analyzer (-fix's config) over a copy of the testdata where each of
// pkg's files named has its golden in its place. A write the second run
// fixes again fails t; it returns the message of each write it keeps.
func fixTwice(t *testing.T, pkg string, files ...string) []string {
	t.Helper()
	gopath := t.TempDir()
	src := filepath.Join(gopath, "src")
	if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v\n%s", err, out)
	}
	dir := filepath.Join(src, filepath.FromSlash(pkg))
	for _, name := range files {
		if err := os.Rename(filepath.Join(dir, name+".golden"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	var kept []string
	for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: pkg + "="}), pkg) {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("%s: the second run fixes again: %s", r.Pass.Fset.Position(d.Pos), d.SuggestedFixes[0].Message)
			}
			kept = append(kept, d.Message)
		}
	}
	return kept
}
