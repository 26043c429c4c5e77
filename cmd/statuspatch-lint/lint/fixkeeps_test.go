package lint_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// -fix erases no finding (issue 80): a replayed write keeps its finding
// and says what to do instead of moving onto Flush; a patch whose base is
// taken after the status changes is named and gets no lock, or moves onto
// the patcher, which writes the changes. After the fix (the .golden file),
// -ci still reports every replay and every empty patch left in place.
func TestFixKeepsEveryFinding(t *testing.T) {
	before := map[string]string{} // function -> category
	for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true, Patchers: opPatchers}), "example.com/op/fixkeeps") {
		for _, d := range r.Diagnostics {
			if d.Category == "replay" || d.Category == "empty" {
				if len(d.SuggestedFixes) == 0 {
					before[enclosingFunc(t, r.Pass.Fset.Position(d.Pos).Filename, r.Pass.Fset.Position(d.Pos).Line)] = d.Category
				} else if !strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
					t.Errorf("%s: %s finding fixed by %q, which does not fix it", r.Pass.Fset.Position(d.Pos), d.Category, d.SuggestedFixes[0].Message)
				}
			}
		}
	}
	if len(before) != 6 {
		t.Fatalf("%d replayed or empty writes left in place, want 6: %v", len(before), before)
	}
	gopath := t.TempDir()
	src := filepath.Join(gopath, "src")
	if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v\n%s", err, out)
	}
	goldens, err := filepath.Glob(filepath.Join(src, "example.com", "op", "fixkeeps", "*.go.golden"))
	if err != nil || len(goldens) != 2 {
		t.Fatalf("golden files: %v (%v)", goldens, err)
	}
	for _, g := range goldens {
		if err := os.Rename(g, strings.TrimSuffix(g, ".golden")); err != nil {
			t.Fatal(err)
		}
	}
	after := map[string]string{}
	for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(lint.Config{CI: true, Patchers: opPatchers}), "example.com/op/fixkeeps") {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			after[enclosingFunc(t, p.Filename, p.Line)] = d.Category
		}
	}
	for fn, cat := range before {
		if after[fn] != cat {
			t.Errorf("after -fix, -ci reports %s as %q, want %q (the finding is erased)", fn, after[fn], cat)
		}
	}
	if cat, ok := after["lateMoved"]; ok {
		t.Errorf("after -fix, the late base moved onto the patcher is still reported (%s)", cat)
	}
}

// enclosingFunc names the top-level function around line of file (a
// method by its name, a generic function without its type parameters).
func enclosingFunc(t *testing.T, file string, line int) string {
	_, name := funcAt(t, file, line)
	return name
}

var funcDecl = regexp.MustCompile(`^func (\([^)]*\) )?(\w+)`)

// funcAt is the receiver ("(r *R) ", "" for a function) and the name of
// the top-level function around line of file.
func funcAt(t *testing.T, file string, line int) (recv, name string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if i >= line {
			break
		}
		if m := funcDecl.FindStringSubmatch(l); m != nil {
			recv, name = m[1], m[2]
		}
	}
	return recv, name
}
