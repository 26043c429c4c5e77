package migrate

import (
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The patchers the code makes in an object's life (lifepatcher.go): p :=
// New<Kind>StatusPatcher(c, obj), p, err :=
// Fetch<Kind>StatusPatcherInto(ctx, c, key, obj), or obj := p.Object() of
// a p, err := Fetch<Kind>StatusPatcher(ctx, c, key).

// A madePatcher is the patcher the code made in the object's life: its
// statement (after which the object is what it holds), its variable and
// the call that made it.
type madePatcher struct {
	stmt   ast.Stmt
	via    *types.Var
	made   *ast.CallExpr // New<Kind>StatusPatcher(c, obj, opts...) or Fetch<Kind>StatusPatcher[Into](ctx, c, key, [obj,] opts...)
	opts   []ast.Expr
	client ast.Expr // the client it is made with
	obj    bool     // made by obj := p.Object(): the object is the patcher's
}

// madePatchers is every patcher of m's object, of the kind p, the code
// makes in the write's function, in source order.
func madePatchers(m *migration, p Patcher) []madePatcher {
	var found []madePatcher
	fn := m.enclosingFunc()
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		lhs, ok2 := as.Lhs[0].(*ast.Ident)
		if !ok || !ok2 {
			return true
		}
		if cp, ok := madeOf(m, p, call, lhs); ok && (cp.obj || cp.objArg(m)) {
			cp.stmt = as
			found = append(found, cp)
		}
		return true
	})
	return found
}

// firstOption is the index of the first option of name, a function of
// the patchers' package making p's patcher: New<Kind>StatusPatcher(c,
// obj, opts...), Fetch<Kind>StatusPatcher(ctx, c, key, opts...) or
// Fetch<Kind>StatusPatcherInto(ctx, c, key, obj, opts...); 0 for any
// other.
func firstOption(p Patcher, name string) int {
	return map[string]int{"New" + p.Type: 2, "Fetch" + p.Type: 3, "Fetch" + p.Type + "Into": 4}[name]
}

// madeOf reads call, assigned to lhs: a New or FetchInto of the kind's
// patcher given the object (lhs its variable), or obj := p.Object() of
// one (lhs the object). A plain Fetch is given no object: the object is
// its p.Object(), the second form, whose options are the Fetch's.
func madeOf(m *migration, p Patcher, call *ast.CallExpr, lhs *ast.Ident) (madePatcher, bool) {
	if fn := kube.CalledFunc(m.pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == p.Pkg && fn.Signature().Recv() == nil {
		v, _ := m.pass.TypesInfo.ObjectOf(lhs).(*types.Var)
		first := firstOption(p, fn.Name())
		if v != nil && first > 0 && fn.Name() != "Fetch"+p.Type && len(call.Args) >= first {
			return madePatcher{via: v, made: call, opts: call.Args[first:], client: clientArg(call, fn.Name() == "New"+p.Type)}, true
		}
		return madePatcher{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Object" || len(call.Args) != 0 || m.pass.TypesInfo.ObjectOf(lhs) != m.obj {
		return madePatcher{}, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v == nil || !isPatcherOf(v.Type(), p) {
		return madePatcher{}, false
	}
	cp := madePatcher{via: v, made: call, obj: true}
	// The options are the ones its Fetch (or New) was made with.
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return true
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || m.pass.TypesInfo.ObjectOf(id) != v {
			return true
		}
		if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
			if fn := kube.CalledFunc(m.pass, c); fn != nil {
				if first := firstOption(p, fn.Name()); first > 0 && len(c.Args) >= first {
					cp.opts, cp.client = c.Args[first:], clientArg(c, fn.Name() == "New"+p.Type)
				}
			}
		}
		return true
	})
	return cp, true
}

// clientArg is the client a call making a patcher is given: New's first
// argument, a Fetch's second.
func clientArg(call *ast.CallExpr, isNew bool) ast.Expr {
	if isNew {
		return call.Args[0]
	}
	return call.Args[1]
}

// objArg reports whether the New or FetchInto call is given m's object.
func (cp madePatcher) objArg(m *migration) bool {
	i := 1
	if fn := kube.CalledFunc(m.pass, cp.made); fn != nil && fn.Name() != "New"+m.patcherType {
		i = 3
	}
	return i < len(cp.made.Args) && m.isObj(cp.made.Args[i])
}
