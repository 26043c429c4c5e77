package migrate

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/cfg"
)

// Whether the patcher a life's object was made at (life.made, and the
// code's variable for it, life.via) still holds that object at a point:
// the question of a call that passes the patcher instead of the object
// (migrategenericlife.go). Status changes since keep it held (a Flush
// sends them); the object's variable assigned (w = &v1.Widget{}, *w =
// *o, a range into it), read again with Get anywhere but at the
// patcher's read, or copied into (o.DeepCopyInto(w)), or the patcher's
// variable assigned, end it: the patcher would write another object's
// status, or send nothing of the object the call was given.

// holdsAt reports whether, on every path that reaches call, the object
// is still the one the patcher made at l.made holds.
func (l *life) holdsAt(call *ast.CallExpr) bool {
	for _, b := range l.g.Blocks {
		for i, n := range b.Nodes {
			if b.Live && n.Pos() <= call.Pos() && call.End() <= n.End() {
				if l.detaches(n, call) {
					return false
				}
				return l.freshBefore(b, i, l.holdEvent, map[*cfg.Block]bool{})
			}
		}
	}
	return false
}

// holdEvent is what node n does to the patcher's hold on the object:
// renewed at the patcher's making, a status write or a Flush of it;
// changed where it ends; untouched otherwise (a status change too).
func (l *life) holdEvent(n ast.Node) event {
	if l.made != nil && n == l.made {
		return renewed
	}
	if l.detaches(n, nil) {
		return changed
	}
	if l.event(n) == renewed {
		return renewed
	}
	return untouched
}

// detaches reports whether n (up to the call until, when given) makes
// the object's variable name another object, fills it with one, or
// makes the patcher's variable another patcher.
func (l *life) detaches(n ast.Node, until *ast.CallExpr) bool {
	if l.rangedInto(n) {
		return true
	}
	found := false
	kept := map[ast.Node]bool{} // an address handed to a callee keeping the hold (lifeaddr.go)
	if call, u := handedAt(l, n); call != nil && keepsHold(l, call, u) {
		kept[u] = true
	}
	ast.Inspect(n, func(x ast.Node) bool {
		if found || x == nil || kept[x] || until != nil && x.Pos() >= until.Pos() {
			return false
		}
		switch x := x.(type) {
		case *ast.DeferStmt:
			if _, ok := ast.Unparen(x.Call.Fun).(*ast.FuncLit); ok {
				return false // runs as the function returns
			}
		case *ast.AssignStmt:
			for _, e := range x.Lhs {
				found = found || l.whole(e) || l.isVia(e)
			}
		case *ast.UnaryExpr:
			found = x.Op == token.AND && (l.is(x.X) || l.isVia(x.X))
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			switch {
			case len(x.Args) >= 3 && l.isGet(x):
				found = (l.made == nil || x.Pos() < l.made.Pos() || x.End() > l.made.End()) && !refetchedGet(l, x)
			case ok && sel.Sel.Name == "DeepCopyInto" && len(x.Args) == 1 && l.is(x.Args[0]):
				found = true
			}
		}
		return !found
	})
	return found
}

// whole reports whether e is the object's variable or what it points
// at (w, *w).
func (l *life) whole(e ast.Expr) bool {
	if s, ok := ast.Unparen(e).(*ast.StarExpr); ok {
		e = s.X
	}
	return l.is(e)
}

// rangedInto reports whether node n of the graph is a range's key or
// value assigned to the object's or the patcher's variable (go/cfg makes
// each its own node: for _, w = range ws), or a switch on one.
func (l *life) rangedInto(n ast.Node) bool {
	e, ok := n.(ast.Expr)
	return ok && (l.whole(e) || l.isVia(e))
}

// isVia reports whether e is the patcher's variable the code made.
func (l *life) isVia(e ast.Expr) bool {
	return l.via != nil && identOf(l.si.pass, e) == l.via
}

// viaReassigned reports whether the patcher's variable is assigned (or
// its address taken) anywhere in the function but where it is made:
// then a Flush of it may be another object's, and renews nothing.
func (l *life) viaReassigned() bool {
	if l.via == nil {
		return false
	}
	found := false
	ast.Inspect(l.si.enclosingFunc(), func(n ast.Node) bool {
		if found || n == nil || n == l.made {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				// p, err := Fetch...(...), then obj := p.Object() made
				// at: p's declaration is no second value of it.
				id, ok := e.(*ast.Ident)
				found = found || l.isVia(e) && (!ok || n.Tok != token.DEFINE || l.si.pass.TypesInfo.Defs[id] != l.via)
			}
		case *ast.RangeStmt:
			found = n.Key != nil && l.isVia(n.Key) || n.Value != nil && l.isVia(n.Value)
		case *ast.UnaryExpr:
			found = n.Op == token.AND && l.isVia(n.X)
		}
		return !found
	})
	return found
}
