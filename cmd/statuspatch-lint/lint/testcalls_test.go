package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A helper's finding whose fix cannot take its test calls' edits (two
// fixes at its write) loses its fixes, the finding saying why: a fix
// moving the helper without them would leave the tests calling it with
// the object (they would not compile). One fix takes the edits.
func TestResolveTestCallsDropsFixesItCannotExtend(t *testing.T) {
	for _, c := range []struct {
		name  string
		fixes int
		want  string
	}{
		{"two fixes", 2, "its write's 1 finding(s) have 2 fixes, and its test calls' edits go with a single fix alone"},
		{"one fix", 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			pkg, err := parser.ParseFile(fset, "/m/ctrlt/ctrlt.go", "package ctrlt\n\nfunc f() { write() }\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			pos := pkg.Decls[0].(*ast.FuncDecl).Body.List[0].Pos()
			test, err := parser.ParseFile(fset, "/m/ctrlt/ctrlt_test.go", "package ctrlt\n\nfunc TestF() { r.updateStatus(ctx, built, \"x\") }\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			d := analysis.Diagnostic{Pos: pos, Message: "write"}
			for i := range c.fixes {
				d.SuggestedFixes = append(d.SuggestedFixes, analysis.SuggestedFix{Message: "fix " + string(rune('a'+i)) + " (x)"})
			}
			act := &checker.Action{
				Package:     &packages.Package{Fset: fset, Types: types.NewPackage("m/ctrlt", "ctrlt")},
				Result:      &Result{Members: []migrate.GroupMember{{Pos: pos, Tests: &migrate.TestCalls{Name: "updateStatus", Method: true, ObjIndex: 1, ClientIndex: -1, ClientRest: ".local", PatcherPkg: "m/kindpatch", PatcherName: "kindpatch", Ctor: "NewDeploymentStatusPatcher"}}}},
				Diagnostics: []analysis.Diagnostic{d},
			}
			ResolveTestCalls(&checker.Graph{Roots: []*checker.Action{act}}, func(*token.FileSet, string, string) ([]*ast.File, error) {
				return []*ast.File{test}, nil
			}, "m")
			got := act.Diagnostics[0]
			if c.want != "" {
				if got.SuggestedFixes != nil || !strings.Contains(got.Message, c.want) {
					t.Errorf("finding %q keeps %d fixes; want none and %q", got.Message, len(got.SuggestedFixes), c.want)
				}
				return
			}
			if len(got.SuggestedFixes) != 1 || len(got.SuggestedFixes[0].TextEdits) != 2 {
				t.Errorf("finding %q: want one fix with the test call's edits (import, call), got %+v", got.Message, got.SuggestedFixes)
			}
		})
	}
}
