package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A generic helper's caller that takes the base after the status
// changes: the helper's merge patch sends nothing (migrategenericlife.go
// asks lateBase before it plans the call).

// EmptyPatch is what a kept write's reason says when its patch sends
// nothing (a base taken after the changes): the lock is no fix for it
// either (it would send only the resourceVersion, store nothing, and may
// conflict), so the analyzer offers none.
const EmptyPatch = "the patch sends nothing"

// lateBase is where the last status change of v before kc's base is
// ("line N"), after v's last read and on a path of the function's graph
// to the base (not in a branch that returns first: life.reaches), when
// the base is taken after it in the same block as the call and nothing
// between the base and the call may change v: the merge patch the helper
// builds from that base sends none of those changes (lint's late-base
// verdict, latebase.go, seen from the caller). "" when the base is not
// late.
func lateBase(kc *kindCaller, v *types.Var) string {
	if kc.base == nil {
		return ""
	}
	l := newLife(kc.site, v)
	if l == nil {
		return ""
	}
	from := kc.enclosingFunc().Pos()
	if start, _, _ := lifeStart(kc, v); start != nil {
		from = start.End()
	}
	for _, list := range kc.enclosingLists() {
		ib := slices.Index(list, kc.base)
		if ib < 0 {
			continue
		}
		ic := slices.IndexFunc(list, func(s ast.Stmt) bool { return s.Pos() <= kc.call.Pos() && kc.call.End() <= s.End() })
		if ic < ib {
			return ""
		}
		for _, s := range list[ib+1 : ic] {
			if l.event(s) != untouched {
				return "" // the patch sends what changes there
			}
		}
		break
	}
	if l.aliased(kc.call.Pos()) {
		return "" // changes through another name are not seen here
	}
	var last token.Pos
	ast.Inspect(kc.enclosingFunc(), func(n ast.Node) bool {
		if n == nil || n.End() <= from || n.Pos() >= kc.base.Pos() {
			return n != nil && n.Pos() < kc.base.Pos() && n.End() > from
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false // runs when called, not here
		}
		var changed []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			changed = n.Lhs
		case *ast.IncDecStmt:
			changed = []ast.Expr{n.X}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				changed = []ast.Expr{n.X}
			}
		}
		for _, e := range changed {
			if rooted, status := l.chain(e); rooted && status && n.Pos() > last && l.reaches(n.Pos(), kc.base.Pos()) {
				last = n.Pos()
			}
		}
		return true
	})
	if !last.IsValid() {
		return ""
	}
	return kc.where(last)
}

// aliased reports whether, before pos, a reference into the object is
// given another name (st := &w.Status, conds := w.Status.Conditions):
// the object may change through it where its own name is not used.
func (l *life) aliased(pos token.Pos) bool {
	found := false
	ast.Inspect(l.si.enclosingFunc(), func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			rhs = n.Rhs
		case *ast.ValueSpec:
			rhs = n.Values
		}
		for _, e := range rhs {
			if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
				e = u.X
			} else if !l.reference(e) {
				continue
			}
			found = found || l.rooted(e)
		}
		return !found
	})
	return found
}
