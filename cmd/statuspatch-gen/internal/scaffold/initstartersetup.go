package scaffold

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The starter test builds its reconciler with a Client (and a Scheme),
// never through SetupWithManager: what SetupWithManager sets on the
// reconciler besides its Client, or registers on the manager's cache,
// the test's reconciler lacks. kubebuilder's CronJob tutorial sets Clock
// there (nil in the test: Reconcile's r.Now() panics) and registers a
// field index its List reads with client.MatchingFields (the API server
// the test's client reads from refuses the field: "field label not
// supported"). init says so, naming the lines, and leaves a TODO where
// the test builds the reconciler; it does not guess the values.

// setupNeeds is what the SetupWithManager of type recv (a reconciler's
// name) in the folder dir (project-relative ctrlDir) sets on its receiver
// other than Client, and the field indexes it registers: "sets r.Clock
// (file:line)" entries, in source order; none when there is no such
// method or it does neither. A file in wired is read as init leaves it.
func setupNeeds(dir, ctrlDir, recv string, wired map[string]string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(ctrlDir)))
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		var src any
		if text, ok := wired[path.Join(ctrlDir, n)]; ok {
			src = text
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, filepath.FromSlash(ctrlDir), n), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "SetupWithManager" || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 ||
				typeName(fd.Recv.List[0].Type) != recv || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			self := fd.Recv.List[0].Names[0].Name
			where := func(p token.Pos) string { return fmt.Sprintf("%s:%d", path.Join(ctrlDir, n), fset.Position(p).Line) }
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				switch x := x.(type) {
				case *ast.FuncLit:
					return false // an index's extractor, a predicate: run later
				case *ast.AssignStmt:
					for _, l := range x.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok && isIdent(sel.X, self) && sel.Sel.Name != "Client" {
							out = append(out, fmt.Sprintf("sets %s.%s (%s)", self, sel.Sel.Name, where(x.Pos())))
						}
					}
				case *ast.CallExpr:
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "IndexField" {
						out = append(out, fmt.Sprintf("registers a field index, which a List with client.MatchingFields reads from the manager's cache (%s)", where(x.Pos())))
					}
				}
				return true
			})
		}
	}
	return out, nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// setupNote is init's note on needs (setupNeeds) of kind's reconciler.
func setupNote(kind, test string, needs []string) string {
	return fmt.Sprintf("statuspatch-gen init: %s: the starter test builds %sReconciler with its Client (and Scheme), not through SetupWithManager, which %s: set the same in the test (a field index needs a client reading through a cache that has it; the API server the test's client reads from refuses the field: \"field label not supported\")",
		test, kind, strings.Join(needs, ", and "))
}
