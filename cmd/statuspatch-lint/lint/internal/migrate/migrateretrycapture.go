package migrate

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// capturesStatus reports whether the decision (the block and its guard)
// uses a local of the function set outside it from the object's status:
// next := w.Status.Size + 1 before the if, a flag set under an if or
// range reading it, or a copy of the object (old := w.DeepCopy()). mutate would capture that value and, on a conflict,
// write it again over the fresh object, a decision made from the state
// before (Retry's contract: mutate decides from the object it is given).
// The write is then no Retry (a Flush returns the 409, and the next
// reconcile decides from a new read, as the write it replaces did).
func (r retries) capturesStatus(p *retryPlan) bool {
	from, to := p.stmts[0].Pos(), p.write.End()
	var nodes []ast.Node
	if p.guard != nil {
		from = p.guard.Pos()
		nodes = append(nodes, p.guard.Cond)
	}
	for _, s := range p.stmts {
		nodes = append(nodes, s)
	}
	fn := r.enclosingFunc()
	captured := map[*types.Var]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(x ast.Node) bool {
			id, ok := x.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := r.pass.TypesInfo.Uses[id].(*types.Var)
			if ok && v != r.obj && v != r.copyOf && !v.IsField() && v.Pos() >= fn.Pos() && v.Pos() < fn.End() && (v.Pos() < from || v.Pos() >= to) {
				captured[v] = true
			}
			return true
		})
	}
	if len(captured) == 0 {
		return false
	}
	cur, ok := r.cursor(fn)
	if !ok {
		return true // not in the package's syntax: what mutate captures is not known
	}
	found := false
	cur.Inspect(nil, func(c inspector.Cursor) bool {
		x := c.Node()
		if found || x.Pos() >= from && x.End() <= to {
			return false
		}
		var lhs []ast.Expr
		switch x := x.(type) {
		case *ast.AssignStmt:
			lhs = x.Lhs
		case *ast.ValueSpec:
			for _, n := range x.Names {
				lhs = append(lhs, n)
			}
		case *ast.IncDecStmt:
			lhs = []ast.Expr{x.X}
		case *ast.RangeStmt:
			lhs = []ast.Expr{x.Key, x.Value}
		}
		for _, e := range lhs {
			id, _ := e.(*ast.Ident)
			if id == nil {
				continue
			}
			v, _ := r.pass.TypesInfo.ObjectOf(id).(*types.Var)
			if v == nil || !captured[v] {
				continue
			}
			// The statements around, whose conditions decide what is set.
			found = r.decidedFromStatus(x, stackFrom(fn, c)) || r.copiesObject(x)
			if found {
				break
			}
		}
		return !found
	})
	return found
}

// decidedFromStatus reports whether the value assign (an assignment,
// declaration or range) gives, under the statements on stack, depends on
// the object's status: assign reads it, or a condition, tag or range
// around it does (statusRead walks nodes of the package's syntax).
func (r retries) decidedFromStatus(assign ast.Node, stack []ast.Node) bool {
	nodes := []ast.Node{assign}
	if rs, ok := assign.(*ast.RangeStmt); ok {
		// Its key and value are given by what it ranges over, not by
		// its body (karpenter's `for key, cb := range byKey`).
		nodes = []ast.Node{rs.X}
	}
	for _, s := range stack {
		var e []ast.Expr
		switch s := s.(type) {
		case *ast.IfStmt:
			e = []ast.Expr{s.Cond}
		case *ast.ForStmt:
			e = []ast.Expr{s.Cond}
		case *ast.RangeStmt:
			e = []ast.Expr{s.X}
		case *ast.SwitchStmt:
			e = []ast.Expr{s.Tag}
		case *ast.CaseClause:
			e = s.List
		}
		for _, x := range e {
			if x != nil {
				nodes = append(nodes, x)
			}
		}
	}
	return r.statusRead(nodes, r.obj, map[*types.Func]bool{})
}

// copiesObject reports whether assign's value is a copy of the object,
// status and all (w.DeepCopy(), *w): unlike w, it is not the object a
// conflict's re-read refreshes in place.
func (r retries) copiesObject(assign ast.Node) bool {
	var rhs []ast.Expr
	switch a := assign.(type) {
	case *ast.AssignStmt:
		rhs = a.Rhs
	case *ast.ValueSpec:
		rhs = a.Values
	}
	found := false
	for _, e := range rhs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StarExpr:
				found = found || r.isObj(n.X)
			case *ast.CallExpr:
				sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				found = found || ok && strings.HasPrefix(sel.Sel.Name, "DeepCopy") && r.isObj(sel.X)
			}
			return !found
		})
	}
	return found
}
