package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// A Patch called through an interface the patch helper implements
// (migratepatchhelperlock.go): which such calls may be the helper's.

// ifacePatchUses is the cursor of each x.Patch of an interface whose
// method set the helper's type has (p.Patch(ctx, obj) with var p
// statusPatcher = newHelper(...)).
func ifacePatchUses(h *patchHelper, method *types.Func) []inspector.Cursor {
	var out []inspector.Cursor
	ptr := types.NewPointer(h.named)
	for cur := range h.insp.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if sel.Sel.Name != method.Name() {
			continue
		}
		fn, _ := h.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if fn == nil || fn == method || fn.Signature().Recv() == nil {
			continue
		}
		iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
		if !ok || !types.Implements(ptr, iface) && !types.Implements(h.named, iface) {
			continue
		}
		if fd, _ := patchDecl(cur); fd != nil && !mayHold(h, fd, sel.X) {
			continue
		}
		if c, ok := cur.FindNode(sel.Sel); ok {
			out = append(out, c)
		}
	}
	return out
}

// mayHold reports whether the interface value x, in fd, may hold the
// helper: not a local variable every assignment of which in fd is of a
// concrete type other than the helper's, nor a parameter every call of
// fd hands such a type (argMayHold).
func mayHold(h *patchHelper, fd *ast.FuncDecl, x ast.Expr) bool {
	v := identOf(h.pass, x)
	if i := slices.Index(paramVars(h.pass, fd), v); v != nil && i >= 0 {
		return argMayHold(h, fd, i)
	}
	if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() >= fd.End() {
		return true
	}
	may, assigned := false, false
	check := func(rhs ast.Expr) {
		assigned = true
		if typeMayHold(h, h.pass.TypesInfo.TypeOf(rhs)) {
			may = true
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if identOf(h.pass, l) == v {
					if len(n.Lhs) != len(n.Rhs) {
						may = true
					} else {
						check(n.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if h.pass.TypesInfo.Defs[id] == v && i < len(n.Values) && len(n.Names) == len(n.Values) {
					check(n.Values[i])
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && identOf(h.pass, n.X) == v {
				may = true // set through its address
			}
		}
		return true
	})
	return may || !assigned
}

// argMayHold reports whether fd's i-th parameter may hold the helper: fd
// is exported, used other than called, has no call in the package, its
// parameter is variadic, or a call hands it a value of an interface, of
// the helper's type, or of a type whose Patch is the helper's (embedded).
func argMayHold(h *patchHelper, fd *ast.FuncDecl, i int) bool {
	fn, _ := h.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fd.Name.IsExported() || fn.Signature().Variadic() && i == fn.Signature().Params().Len()-1 {
		return true
	}
	called := false
	for cur := range h.insp.Root().Preorder((*ast.Ident)(nil)) {
		if h.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] != fn {
			continue
		}
		fun := cur
		if sel, ok := cur.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == cur.Node() {
			fun = cur.Parent()
		}
		call, ok := fun.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun != fun.Node() || i >= len(call.Args) {
			return true // a function value, or a call not seen whole
		}
		if typeMayHold(h, h.pass.TypesInfo.TypeOf(call.Args[i])) {
			return true
		}
		called = true
	}
	return !called
}

// typeMayHold reports whether a value of t may be the helper: unknown, an
// interface, the helper's type, or a type whose Patch is the helper's (a
// struct embedding it).
func typeMayHold(h *patchHelper, t types.Type) bool {
	if t == nil || types.IsInterface(t) || types.Identical(t, types.NewPointer(h.named)) || types.Identical(t, h.named) {
		return true
	}
	m, _, _ := types.LookupFieldOrMethod(t, true, h.pass.Pkg, h.method.Name.Name)
	return m != nil && m == h.pass.TypesInfo.Defs[h.method.Name]
}

// seenKey names the scan of fd by which of its parameters are the
// object's names and which another object's: a scan per such set.
func (s *baseScan) seenKey(fd *ast.FuncDecl) string {
	key := fmt.Sprintf("%p:", fd)
	for _, p := range paramVars(s.h.pass, fd) {
		switch {
		case p == nil:
			key += "-"
		case s.others[p]:
			key += "o"
		case s.names != nil && s.names.has(s.names.vars, p):
			key += "n"
		default:
			key += "-"
		}
	}
	return key
}
