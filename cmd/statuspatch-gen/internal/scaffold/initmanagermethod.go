package scaffold

import (
	"go/ast"
	"slices"
)

// withMethodSets adds to sets, in source order, each statement of body
// that calls a method of typeName declared in f whose own body sets the
// client (r.init(mgr), whose body is r.Client = mgr.GetClient()): the
// method runs after any line wired before it, so ForManager goes after
// the call, as after a literal without the client (a set of nil). At
// 8d5f757d init wrote ForManager first in SetupWithManager and the call
// overwrote it, its note saying it was wired (reviewer R, s106). A
// method of another file is not seen.
func withMethodSets(f *ast.File, typeName string, body *ast.BlockStmt, recv string, via []string, sets []clientSet) []clientSet {
	setters := map[string]clientSet{} // each method's last set
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil || fd.Name.Name == "SetupWithManager" {
			continue
		}
		rt := fd.Recv.List[0].Type
		if star, ok := rt.(*ast.StarExpr); ok {
			rt = star.X
		}
		id, ok := rt.(*ast.Ident)
		names := fd.Recv.List[0].Names
		if !ok || id.Name != typeName || len(names) != 1 {
			continue
		}
		if ms := clientSets(fd.Body, names[0].Name, via); len(ms) > 0 {
			setters[fd.Name.Name] = ms[len(ms)-1]
		}
	}
	if len(setters) == 0 {
		return sets
	}
	for _, stmt := range body.List {
		es, ok := stmt.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		ms, ok := setters[sel.Sel.Name]
		if x, isID := sel.X.(*ast.Ident); !ok || !isID || x.Name != recv {
			continue
		}
		s := clientSet{stmt: stmt, top: true, at: call}
		if !ms.top || ms.val == nil || !isGetClient(ms.val, getClientOf(ms.val)) {
			// anything but the manager's client on every path: init
			// says what it sets and wires nothing
			s.val, s.opaque = call, true
		}
		sets = append(sets, s)
	}
	slices.SortStableFunc(sets, func(a, b clientSet) int { return int(a.at.Pos() - b.at.Pos()) })
	return sets
}

// getClientOf is the name x of e = x.GetClient(), "" for another e.
func getClientOf(e ast.Expr) string {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				return x.Name
			}
		}
	}
	return ""
}
