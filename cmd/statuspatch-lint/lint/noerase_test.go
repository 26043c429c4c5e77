package lint_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// No finding is ever erased by -fix (issue 80), as a property of every
// migrated package of the testdata, not of fixkeeps' cases alone: each
// package is analyzed with -audit as written and again as its goldens
// have it (what -fix wrote). A replayed write is never moved, so every
// replay of a function is still reported after; an empty patch (a late
// base) either stays reported or its function makes a patcher after,
// which writes what the late base left unsent.
func TestNoFindingErasedByFix(t *testing.T) {
	gopath, goldens, pkgs := migratedTestdata(t)
	cfg := lint.Config{Audit: true, Patchers: opPatchers}
	findings := func() map[string]int {
		out := map[string]int{}
		for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(cfg), pkgs...) {
			for _, d := range r.Diagnostics {
				if d.Category != "replay" && d.Category != "empty" {
					continue
				}
				p := r.Pass.Fset.Position(d.Pos)
				out[funcKey(t, p.Filename, p.Line)+" "+d.Category]++
			}
		}
		return out
	}
	before := findings()
	if len(before) < 12 {
		t.Fatalf("%d functions with a replayed or empty write before -fix, want at least 12: %v", len(before), before)
	}
	for _, g := range goldens {
		if err := os.Rename(g, strings.TrimSuffix(g, ".golden")); err != nil {
			t.Fatal(err)
		}
	}
	after := findings()
	for key, n := range before {
		if after[key] >= n {
			continue
		}
		fn, cat, _ := strings.Cut(key, " ")
		if cat == "empty" && strings.Contains(funcBody(t, fn), "Patcher") {
			continue // moved onto the patcher made at the read
		}
		t.Errorf("%s: %d %s findings before -fix, %d after: erased", fn, n, cat, after[key])
	}
}

// migratedTestdata copies the testdata into a new GOPATH and returns it,
// its golden files and the packages that hold them: every package -fix
// migrates in the tests.
func migratedTestdata(t *testing.T) (gopath string, goldens, pkgs []string) {
	gopath = t.TempDir()
	src := filepath.Join(gopath, "src")
	if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v\n%s", err, out)
	}
	goldens, err := filepath.Glob(filepath.Join(src, "example.com", "op", "*", "*", "*.go.golden"))
	more, _ := filepath.Glob(filepath.Join(src, "example.com", "op", "*", "*.go.golden")) // fixkeeps
	goldens = append(goldens, more...)
	if err != nil || len(goldens) < 150 {
		t.Fatalf("golden files: %d (%v)", len(goldens), err)
	}
	seen := map[string]bool{}
	for _, g := range goldens {
		dir, _ := filepath.Rel(src, filepath.Dir(g))
		if !seen[dir] {
			seen[dir] = true
			pkgs = append(pkgs, filepath.ToSlash(dir))
		}
	}
	return gopath, goldens, pkgs
}

// funcKey names the top-level function around line of file: the file,
// the receiver and the name (funcAt).
func funcKey(t *testing.T, file string, line int) string {
	recv, name := funcAt(t, file, line)
	return fmt.Sprintf("%s:%s", file, strings.ReplaceAll("func "+recv+name, " ", "_"))
}

// funcBody is the text of the function funcKey named, as the file holds
// it now.
func funcBody(t *testing.T, key string) string {
	file, name, _ := strings.Cut(key, ":")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if m := funcDecl.FindStringSubmatch(l); m != nil && strings.ReplaceAll(m[0], " ", "_") == name {
			end := i + 1
			for end < len(lines) && lines[end] != "}" {
				end++
			}
			return strings.Join(lines[i:end], "\n")
		}
	}
	return ""
}
