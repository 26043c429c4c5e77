package migrate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/cfg"
)

// The returns of a life's function that may give an error after a write
// stored (errorAfter), read on the function's graph: what a deferred
// write guarded by the named error result (lifedefer.go) may follow.

// errorAfter returns the first return of the life's function that, on a path from the write call on which it stored, may give the
// named result res a non-nil error, or a
// panic's end where res may hold one; nil when there is none. The write
// stored where its error, assigned to a variable, is nil: a test of that
// variable takes the branch of nil until it is assigned again; a return
// of the write's call itself is its error. With res nil, any return after
// it counts.
func (l *life) errorAfter(call *ast.CallExpr, res *types.Var) ast.Node {
	pass, fn, g := l.si.pass, l.si.enclosingFunc(), l.g
	resIdx := slices.Index(resultVars(pass, fn), res)
	var start *cfg.Block
	at := -1
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if b.Live && n.Pos() <= call.Pos() && call.End() <= n.End() {
				start, at = b, i
			}
		}
	}
	fnCur, ok := l.si.cursor(fn)
	if start == nil || !ok {
		return call
	}
	var errVar *types.Var // the write's error, nil on the paths walked
	switch n := start.Nodes[at].(type) {
	case *ast.ReturnStmt:
		if res != nil && resIdx < len(n.Results) && ast.Unparen(n.Results[resIdx]) == call {
			return nil // the function's error is the write's
		}
		return n
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 && len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == call {
			errVar = identOf(pass, n.Lhs[0])
		}
	}
	if errVar != nil && writesVar(pass, fnCur, errVar, true, nil) != nil {
		errVar = nil // set where the walk cannot see (&errVar, a closure): its value unknown
	}
	// resSet: the body assigns res, or takes its address, outside its
	// deferred statements and function literals (which run later, or when
	// called: deferral.guard reads them).
	resSet := res != nil && writesVar(pass, fnCur, res, false, laterCode) != nil
	type state struct {
		b       *cfg.Block
		tracked bool
	}
	seen := map[state]bool{}
	var walk func(b *cfg.Block, from int, tracked bool) ast.Node
	walk = func(b *cfg.Block, from int, tracked bool) ast.Node {
		isErr := func(e ast.Expr) bool { return tracked && errVar != nil && identOf(pass, e) == errVar }
		resNil := func() bool { return res != nil && (tracked && errVar == res || !resSet) }
		for _, n := range b.Nodes[from:] {
			if r, ok := n.(*ast.ReturnStmt); ok {
				switch {
				case res == nil:
					return r
				case len(r.Results) == 0:
					if !resNil() {
						return r
					}
				case resIdx >= len(r.Results):
					return r // return f(): its results are not shown
				case !isNil(r.Results[resIdx]) && !isErr(r.Results[resIdx]):
					return r
				}
				continue
			}
			if tracked && assigns(fnCur, n, func(e ast.Expr) bool { return identOf(pass, e) == errVar }) != nil {
				tracked = false
			}
		}
		succs := b.Succs
		if len(succs) == 0 && b.Return() == nil && len(b.Nodes) > 0 && !resNil() {
			return b.Nodes[len(b.Nodes)-1] // a panic, with the result set
		}
		if len(succs) == 2 && len(b.Nodes) > 0 {
			if nilWhen, ok := nilTest(b.Nodes[len(b.Nodes)-1], isErr); ok {
				succs = succs[nilWhen : nilWhen+1]
			}
		}
		for _, s := range succs {
			if seen[state{s, tracked}] {
				continue
			}
			seen[state{s, tracked}] = true
			if r := walk(s, 0, tracked); r != nil {
				return r
			}
		}
		return nil
	}
	return walk(start, at+1, errVar != nil)
}
