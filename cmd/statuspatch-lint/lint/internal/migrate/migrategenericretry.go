package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// An ownBase whose callers decide from the status (issue 80, item 2's
// generic patchStatus[T]): a caller's function literal reads the status
// it sets (if s.Status.Token == "" { s.Status.Token = ... }). The
// helper's Flush, refused as a conflict under a manager when the read
// was the cache's, would leave the decision to the next reconcile, made
// twice. The helper's one call of the function it is given, mutate(obj),
// becomes the patcher's Retry of it: on a conflict Retry reads the
// object again and calls mutate on it, so the caller decides again.
// A literal that hands out a value (tokens.Add, nextID()) would hand
// out another on each attempt: the call is made once, a sync.OnceValue
// declared in the caller before the helper's call (migrateonce.go);
// where it cannot be, the helper stays, naming the call.

// ownRetry is the helper's statement calling mutate: mutate(obj), right
// after the base and right before the write's statement, mutate a
// parameter of the helper, given obj alone; nil for another body.
func (o *ownBase) ownRetry(call *ast.CallExpr) (ast.Stmt, *types.Var) {
	list := o.fd.Body.List
	at := slices.IndexFunc(list, func(s ast.Stmt) bool { return within(call, s) })
	if at < 2 || list[at-2] != o.def {
		return nil, nil
	}
	es, ok := list[at-1].(*ast.ExprStmt)
	if !ok {
		return nil, nil
	}
	mc, ok := es.X.(*ast.CallExpr)
	if !ok || len(mc.Args) != 1 || !o.isObjOf(mc.Args[0]) {
		return nil, nil
	}
	id, _ := ast.Unparen(mc.Fun).(*ast.Ident)
	if id == nil {
		return nil, nil
	}
	v, _ := o.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || !slices.Contains(paramVars(o.pass, o.fd), v) {
		return nil, nil
	}
	return es, v
}

// callersDecide reports whether a caller's literal given as mutate reads
// its object's status other than to set it, or says why the helper
// stays when one does: a literal's call Retry's attempts would each make
// again, which cannot be made once (migrateonce.go). The calls made
// once are made once whichever literal decides: all run in the Retry.
func (o *ownBase) callersDecide(mutate *types.Var) (bool, string) {
	fn, _ := o.pass.TypesInfo.Defs[o.fd.Name].(*types.Func)
	i := slices.Index(paramVars(o.pass, o.fd), mutate)
	if fn == nil || i < 0 {
		return false, ""
	}
	decides, why := false, ""
	for _, f := range o.pass.Files {
		for cur := range o.usesOf(f, fn, f.FileStart, f.FileEnd) {
			c, _ := callOf(cur)
			if c == nil && isExplicitInstance(cur) {
				c, _ = callOf(cur.Parent())
			}
			if c == nil || i >= len(c.Args) {
				continue
			}
			lit, ok := ast.Unparen(c.Args[i]).(*ast.FuncLit)
			if !ok || len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
				continue
			}
			p, _ := o.pass.TypesInfo.Defs[lit.Type.Params.List[0].Names[0]].(*types.Var)
			if p == nil {
				continue
			}
			once, w := litOnces(o, c, lit, p)
			if w != "" && why == "" {
				why = fmt.Sprintf("its caller at %s passes a function literal Retry would call again on each attempt: %s (%s)", o.where(c.Pos()), w, CachedDecision)
			}
			o.once = append(o.once, once...)
			if readsOwnStatus(o.pass.TypesInfo, lit.Body, p) {
				decides = true
			}
		}
	}
	if decides && why != "" {
		return false, why
	}
	return decides, ""
}

// readsOwnStatus reports whether n reads p.Status other than as the
// target of an assignment (p.Status.X = ..., p.Status.N++).
func readsOwnStatus(info *types.Info, n ast.Node, p *types.Var) bool {
	set := map[ast.Expr]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		switch s := x.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.ASSIGN || s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					set[l] = true
				}
			}
		}
		return true
	})
	found := false
	walk := func(x ast.Node, target bool) bool {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && sel.Sel.Name == "Status" && info.Uses[id] == p {
			if !target {
				found = true
			}
			return true
		}
		return false
	}
	ast.Inspect(n, func(x ast.Node) bool {
		if found {
			return false
		}
		e, ok := x.(ast.Expr)
		if !ok {
			return true
		}
		if set[e] {
			// The target's own chain is set; its indexes are read.
			for t := e; ; {
				switch v := t.(type) {
				case *ast.SelectorExpr:
					if walk(v, true) {
						return false
					}
					t = v.X
					continue
				case *ast.IndexExpr:
					ast.Inspect(v.Index, func(y ast.Node) bool { walk(y, false); return !found })
					t = v.X
					continue
				}
				return false
			}
		}
		walk(x, false)
		return !found
	})
	return found
}
