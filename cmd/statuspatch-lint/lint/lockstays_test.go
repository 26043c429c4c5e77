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

// A write whose fix -fix counts fixed is no finding on the next run (the
// B2 of session s91: the lock of a generic helper's patch was printed as
// fixed, and the write reported after): a fix that leaves the write a
// finding ends with lint.FixStays, and every write it marks so is still
// reported, in the default mode and with -ci.
func TestFixedIsNotReportedAfter(t *testing.T) {
	for _, cfg := range []lint.Config{{Patchers: opPatchers}, {CI: true, Patchers: opPatchers}} {
		fixed, stays := map[string]bool{}, map[string]bool{}
		for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(cfg), "example.com/op/lockstays") {
			for _, d := range r.Diagnostics {
				if len(d.SuggestedFixes) == 0 {
					continue
				}
				p := r.Pass.Fset.Position(d.Pos)
				fn, _, _ := strings.Cut(enclosingFunc(t, p.Filename, p.Line), "[")
				if strings.HasSuffix(d.SuggestedFixes[0].Message, lint.FixStays) {
					stays[fn] = true
				} else {
					fixed[fn] = true
				}
			}
		}
		if len(fixed)+len(stays) != 2 {
			t.Fatalf("ci=%v: fixes in %v and %v, want 2", cfg.CI, fixed, stays)
		}
		if want := !cfg.CI; stays["patchStatus"] != want {
			t.Errorf("ci=%v: the generic helper's lock is marked as leaving its finding: %v, want %v", cfg.CI, stays["patchStatus"], want)
		}
		gopath := t.TempDir()
		src := filepath.Join(gopath, "src")
		if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
			t.Fatalf("copy testdata: %v\n%s", err, out)
		}
		golden := filepath.Join(src, "example.com", "op", "lockstays", "lockstays.go")
		if err := os.Rename(golden+".golden", golden); err != nil {
			t.Fatal(err)
		}
		after := map[string]bool{}
		for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(cfg), "example.com/op/lockstays") {
			for _, d := range r.Diagnostics {
				p := r.Pass.Fset.Position(d.Pos)
				fn, _, _ := strings.Cut(enclosingFunc(t, p.Filename, p.Line), "[")
				after[fn] = true
			}
		}
		for fn := range fixed {
			if after[fn] {
				t.Errorf("ci=%v: %s's write is counted fixed, and reported after the fix", cfg.CI, fn)
			}
		}
		for fn := range stays {
			if !after[fn] {
				t.Errorf("ci=%v: %s's fix is marked as leaving its finding, which is gone after", cfg.CI, fn)
			}
		}
	}
}
