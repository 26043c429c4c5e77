package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A parameter of a function no code of the module calls: a map function
// handed to handler.EnqueueRequestsFromMapFunc, a function literal given
// to a predicate's or a webhook's constructor. A library calls it, with
// what it holds (an informer's cached copy, a request's object): no Get
// of the module reads it, and the model cannot show it fresh. Its write
// is a List item's (origin.go): made where the object is taken (a
// checked type assertion of the parameter), its decision in Retry when
// it can run again; else it stays, the reason naming the library call
// that gives it (not "move the write to its callers": there are none in
// the module). Judged in the package: an unexported function or method
// (which no other package can call) all of whose uses are values handed
// to functions of packages outside the module, or a function literal
// handed to one. An exported method (a webhook's Default, a runnable's
// Start) may be called by another package of the module: not judged
// here.

// uncalledOrigin is the origin of the parameter v of the function at
// cur when no code of the module calls that function; nil otherwise.
func uncalledOrigin(m reads, cur inspector.Cursor, v *types.Var) *origin {
	var fnNode inspector.Cursor
	found := false
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fnNode, found = c, true
		break
	}
	if !found {
		return nil
	}
	name, given := "", ""
	switch f := fnNode.Node().(type) {
	case *ast.FuncLit:
		call, ok := fnNode.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun == ast.Expr(f) {
			return nil
		}
		callee := kube.CalledFunc(m.pass, call)
		if !outsideModule(m.pass, callee) {
			return nil
		}
		name = fmt.Sprintf("the function literal at %s", m.where(f.Pos()))
		given = fmt.Sprintf("it is given to %s at %s", funcName(callee, m.pass.Pkg), m.where(call.Pos()))
	case *ast.FuncDecl:
		fn, _ := m.pass.TypesInfo.Defs[f.Name].(*types.Func)
		if fn == nil || fn.Exported() {
			return nil
		}
		given = libraryUses(m, fn)
		if given == "" {
			return nil
		}
		name = funcName(fn, m.pass.Pkg)
	}
	return &origin{
		pos:   v.Pos(),
		what:  "the parameter " + v.Name() + " of " + name,
		whose: "no code of the module calls " + name + ": " + given + ", and what it is given is the library's, a cached copy or a request's object",
	}
}

// libraryUses says where fn, a function of the package, is handed to a
// function of a package outside the module ("it is passed to
// handler.EnqueueRequestsFromMapFunc at line 40"), when that is all its
// uses in the package are; "" when one is a call, or another use.
func libraryUses(m reads, fn *types.Func) string {
	var where []string
	for c := range m.insp.Root().Preorder((*ast.Ident)(nil)) {
		if m.pass.TypesInfo.Uses[c.Node().(*ast.Ident)] != fn {
			continue
		}
		e := c
		if sel, ok := e.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == e.Node() {
			e = e.Parent() // r.mapFn
		}
		call, ok := e.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun == e.Node() {
			return "" // called, or not handed to a call
		}
		callee := kube.CalledFunc(m.pass, call)
		if !outsideModule(m.pass, callee) {
			return ""
		}
		where = append(where, fmt.Sprintf("%s at %s", funcName(callee, m.pass.Pkg), m.where(call.Pos())))
	}
	if len(where) == 0 {
		return ""
	}
	return "it is passed to " + strings.Join(where, " and to ")
}

// outsideModule reports whether fn is declared in a package outside the
// pass's module (a library's): the module's path, or the first element
// of the package's path (three on a code host) in a driver that gives
// none (GOPATH testdata).
func outsideModule(pass *analysis.Pass, fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	mod := ""
	if pass.Module != nil {
		mod = pass.Module.Path
	}
	if mod == "" {
		parts := strings.SplitN(pass.Pkg.Path(), "/", 4)
		mod = parts[0]
		if len(parts) >= 3 && (parts[0] == "github.com" || parts[0] == "gitlab.com" || parts[0] == "bitbucket.org") {
			mod = strings.Join(parts[:3], "/")
		}
	}
	p := fn.Pkg().Path()
	return p != mod && !strings.HasPrefix(p, mod+"/")
}

// libraryParam reports whether the written object is a parameter of a
// function no code of the module calls: its write is not a helper's
// whose callers make the patcher (migratehelper.go), there are none.
func libraryParam(m reads) bool {
	if m.obj == nil {
		return false
	}
	cur, ok := m.defCursor(m.obj)
	if !ok {
		return false
	}
	if _, field := cur.Parent().Node().(*ast.Field); !field {
		return false
	}
	return uncalledOrigin(m, cur, m.obj) != nil
}
