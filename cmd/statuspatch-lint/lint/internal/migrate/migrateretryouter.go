package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
)

// A decision that sets what outlives it (issue 80: a decision moved into
// Retry must not be made twice). Retry's mutate may run more than once,
// and what it sets outside itself keeps each run's effect: a counter
// counts the conflicts too (n++), a slice gets the item twice
// (moved = append(moved, w.Name)), a flag set by the first run stays set
// when the re-read finds nothing to change (changed = true). The
// handwritten write returned the 409 and left them as one decision made
// them. Such a decision is not moved into Retry: the write is a Flush,
// or, for a List item, stays, naming the line.

// outerWhy says why the decision p cannot move into Retry when it sets a
// variable declared outside it, or something reached through one (a
// map's entry, a field), by an assignment, delete or clear, or a
// method of a map (sets.Set's Insert), also in a literal it calls, or
// does what the effects table says an attempt would do again (a channel
// receive); "" when it sets only the object and its own locals.
func outerWhy(r retries, p *retryPlan) string {
	from, to := p.stmts[0].Pos(), p.stmts[len(p.stmts)-1].End()
	why := effectWhy(r, stmtNodes(p.stmts)) // a receive, a mutex's half (migrateeffects.go)
	for _, s := range p.stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			var lhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs = n.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{n.X}
			case *ast.CallExpr:
				lhs = setByCall(r, n)
			}
			for _, e := range lhs {
				v := rootVar(r.pass.TypesInfo, e)
				if v == nil || v == r.obj || v == r.copyOf || v.Pos() >= from && v.Pos() < to || p.carries(v) {
					continue
				}
				if w := p.uncarried[v]; w != "" {
					why = w // migrateretrycarry.go
					return false
				}
				why = fmt.Sprintf("it sets %s at %s, declared outside it: Retry's function may run more than once, and each run's effect on %s would stay", v.Name(), r.where(n.Pos()), v.Name())
				return false
			}
			return true
		})
	}
	return why
}

// setByCall is what the call c sets in place: the map delete or clear
// is given, or the map a method is called on (names.add(n),
// sets.Set[string].Insert); nil for any other call.
func setByCall(r retries, c *ast.CallExpr) []ast.Expr {
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		if b, ok := r.pass.TypesInfo.ObjectOf(f).(*types.Builtin); ok && (b.Name() == "delete" || b.Name() == "clear") && len(c.Args) > 0 {
			return c.Args[:1]
		}
	case *ast.SelectorExpr:
		sel := r.pass.TypesInfo.Selections[f]
		if sel == nil || sel.Kind() != types.MethodVal {
			return nil
		}
		if _, ok := sel.Recv().Underlying().(*types.Map); ok {
			return []ast.Expr{f.X}
		}
	}
	return nil
}

// outerHead is where the decision list[from:at] starts once statements
// at its head that set what outlives it but neither read the object's
// status nor change the object (names = append(names, w.Name) before
// the check of w.Status) are left before the Retry, where they run once
// as the handwritten code ran them: they decide nothing the write sets.
// from when the head sets nothing outside, or does not so stand apart.
func outerHead(r retries, list []ast.Stmt, from, at int) int {
	head := from
	for head < at && !r.statusRead([]ast.Node{list[head]}, r.obj, map[*types.Func]bool{}) &&
		r.onlyRead(list[head], r.obj, list[head].Pos(), list[head].End(), map[*types.Func]bool{}) {
		head++
	}
	if head == from || outerWhy(r, &retryPlan{stmts: list[from:head]}) == "" {
		return from
	}
	// A mutex locked at the head and unlocked in the decision is one
	// pair: it moves whole (migrateeffects.go).
	if effectWhy(r, stmtNodes(list[head:at])) != "" && effectWhy(r, stmtNodes(list[from:at])) == "" {
		return from
	}
	return head
}

// stmtNodes are the statements as nodes.
func stmtNodes(list []ast.Stmt) []ast.Node {
	out := make([]ast.Node, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
