package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Which object is another than the one originalias.go names: read by a
// Get of a key apart from its own (the patch helper's lock,
// migratepatchhelperlock.go, leaves it on beside that object's write).

// another reports whether e names another object than a's, by the model:
// an object read in root by a Get (get says which calls are) whose key
// names none of a's names and comes from variables apart from those of
// every key of a Get of a's object (keysApart), where a's object is read
// by a Get in root too, and no name of either is the other's. Anything else (a parameter, a List's item, one
// key for both, a copy) may be the same object on the server.
func (a *aliases) another(e ast.Expr, root ast.Node, get func(*ast.CallExpr) bool) bool {
	if _, same := a.of(e); same || root == nil {
		return false
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := a.info.Uses[id].(*types.Var)
	if v == nil {
		return false
	}
	b := newAliases(a.info, root, v)
	for bv := range b.vars {
		if a.has(a.vars, bv) {
			return false
		}
	}
	for f := range b.fields {
		if a.has(a.fields, f) {
			return false
		}
	}
	var mine, theirs []ast.Expr
	ast.Inspect(root, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 3 || !get(call) {
			return true
		}
		if _, ok := a.of(call.Args[2]); ok {
			mine = append(mine, call.Args[1])
		} else if _, ok := b.of(call.Args[2]); ok {
			theirs = append(theirs, call.Args[1])
		}
		return true
	})
	if len(mine) == 0 || len(theirs) == 0 {
		return false
	}
	for _, k := range theirs {
		if a.mentions(k) {
			return false
		}
		for _, mk := range mine {
			if b.mentions(mk) || !keysApart(a.info, root, k, mk) {
				return false
			}
		}
	}
	return true
}

// keysApart reports whether the keys k and mk come from disjoint
// variables, following root's assignments (k2 := key is key; a range
// value its range): req.NamespacedName and types.NamespacedName{Name:
// req.Name, ...} may be one object, key and parentKey (parameters) are
// taken as two. A key of no variable is not apart.
func keysApart(info *types.Info, root ast.Node, k, mk ast.Expr) bool {
	from := func(e ast.Expr) map[*types.Var]bool {
		vars := map[*types.Var]bool{}
		var walk func(e ast.Node)
		walk = func(e ast.Node) {
			ast.Inspect(e, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				v, _ := info.Uses[id].(*types.Var)
				if !ok || v == nil || vars[v] {
					return true
				}
				vars[v] = true
				ast.Inspect(root, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						for i, l := range n.Lhs {
							if lid, ok := l.(*ast.Ident); ok && info.ObjectOf(lid) == v {
								walk(n.Rhs[min(i, len(n.Rhs)-1)])
							}
						}
					case *ast.ValueSpec:
						for i, name := range n.Names {
							if info.Defs[name] == v && len(n.Values) > 0 {
								walk(n.Values[min(i, len(n.Values)-1)])
							}
						}
					case *ast.RangeStmt:
						for _, kv := range []ast.Expr{n.Key, n.Value} {
							if kid, ok := kv.(*ast.Ident); ok && kid != nil && info.ObjectOf(kid) == v {
								walk(n.X)
							}
						}
					}
					return true
				})
				return true
			})
		}
		walk(e)
		return vars
	}
	ks, mks := from(k), from(mk)
	if len(ks) == 0 || len(mks) == 0 {
		return false
	}
	for v := range ks {
		if mks[v] {
			return false
		}
	}
	return true
}

// mentions reports whether e uses a name of the object.
func (a *aliases) mentions(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, _ := a.info.Uses[id].(*types.Var); v != nil && a.has(a.vars, v) {
				found = true
			}
		}
		return !found
	})
	return found
}
