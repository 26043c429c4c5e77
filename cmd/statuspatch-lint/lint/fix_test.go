package lint_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Blind status patches get the fix a reviewer would write; a patch that
// also feeds a non-status write, options spread from a slice, and a base
// taken before another write of its object (karpenter's nodeclaim
// lifecycle, locked at 1a53852: a 409 whenever both change), or before a
// call that writes it (lockcalls.go, locked at fc01b3f), get none
// (fix.go.golden keeps them as they are).
func TestSuggestedFixes(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "fix", "fixalias", "kbssa")
	// The checker (-fix) panics on two fixes with one message on a
	// diagnostic: a write with several blind paths gets one fix.
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 1 {
				t.Errorf("%s: %d suggested fixes, want at most one", r.Pass.Fset.Position(d.Pos), len(d.SuggestedFixes))
			}
		}
	}
}

// The fixed packages build, and the writes the fix changed are now
// optimistic: only the ones left without a fix stay blind.
func TestFixedGoldensBuildAndAreOptimistic(t *testing.T) {
	gopath := t.TempDir()
	src := filepath.Join(gopath, "src")
	if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v\n%s", err, out)
	}
	for _, pkg := range []string{"fix", "fixalias", "kbssa"} {
		goldens, err := filepath.Glob(filepath.Join(src, pkg, "*.go.golden"))
		if err != nil || len(goldens) == 0 {
			t.Fatalf("%s: no golden files (%v)", pkg, err)
		}
		for _, g := range goldens {
			if err := os.Rename(g, strings.TrimSuffix(g, ".golden")); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("go", "build", "./"+pkg)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go build of the fixed %s: %v\n%s", pkg, err, out)
		}
	}
	results := analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(lint.Config{CI: true}), "fix", "fixalias")
	var blind []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			blind = append(blind, d.Message)
		}
	}
	// lockcalls.go: the bases older than a call that writes the object
	// (a helper's Update, another package's function given a client).
	if len(blind) != 5 || !strings.Contains(blind[0], "no fix: the same patch also feeds") || !strings.Contains(blind[1], "without MergeFromWithOptimisticLock") || !strings.Contains(blind[2], "no fix: the base stored is taken at line 77, before the write of w at line 80") ||
		!strings.Contains(blind[3], "which is given the object: label writes it") || !strings.Contains(blind[4], "finutil.Ensure is given a client beside it") {
		t.Errorf("after the fixes, -ci reports %d writes, want the shared patch, the spread options, the base older than the object's Patch and the two older than a call writing it:\n%s", len(blind), strings.Join(blind, "\n"))
	}
	// The fixed status applies are locked: WithResourceVersion in their
	// chains: the two kbssa already had, the two fixed where the object
	// was fetched and the helper's (its parameter, which its caller fetched).
	locked := 0
	for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(lint.Config{Audit: true}), "kbssa") {
		for _, d := range r.Diagnostics {
			if strings.HasPrefix(d.Message, "optimistic: ") && strings.HasSuffix(d.Message, "Apply of Application: apply configuration WithResourceVersion") {
				locked++
			}
			if strings.Contains(d.Message, "add .WithResourceVersion(application.ResourceVersion)") {
				t.Errorf("%s: still fixable after the fix: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if locked != 5 {
		t.Errorf("after the fixes, %d status applies of kbssa are locked in their chain, want 5", locked)
	}
}
