package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

// Deferred writes. A write of the object in a deferred literal (defer
// func() { ... }()), or in the body of a function deferred with it
// (defer r.recordError(ctx, obj, &retErr)), runs as its function
// returns, after every statement of the body whatever their place.
// Guarded by a named error result of the function (if retErr == nil {
// return } before it, if err != nil { ... } around it, *errp in a
// function given &retErr, or a parameter given retErr's value inside the
// literal), it runs only when the function returns a non-nil error; the
// returns that may give one after a write (errorAfter) say whether it
// runs after that write stored. Anything the model cannot show (the
// result set by other deferred code, a guard on a value taken at the
// defer statement) is a write that runs whatever the function returns.

// A deferral is when a deferred write of the object runs.
type deferral struct {
	at     *ast.DeferStmt
	result *types.Var // the named error result the write runs only when not nil; nil: it may run whatever is returned
	set    ast.Node   // where that result is set by other deferred code, or before the guard: the guard tells nothing (result is nil)
	setOf  *types.Var // the result set there
}

// deferralOf returns the deferral of call, a write of the object or a
// call handing it to a function that writes it, when it is deferred code
// of fn: the call of one of its defer statements, or a call in a literal
// deferred in its body. nil when it is not.
func deferralOf(pass *analysis.Pass, cur inspector.Cursor, fn ast.Node) *deferral {
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok {
		return nil
	}
	var fnCur inspector.Cursor // fn's place
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if c.Node() == fn {
			fnCur = c
		}
	}
	if !fnCur.Valid() {
		return nil
	}
	in := cur.Inspector()
	if d, ok := cur.Parent().Node().(*ast.DeferStmt); ok && d.Call == call {
		if enclosingOf(cur.Parent()) != fn {
			return nil
		}
		dl := &deferral{at: d}
		dl.guard(pass, fnCur, func(res *types.Var) (bool, ast.Node) { return calleeGuarded(pass, in, call, res, true) })
		return dl
	}
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		lit, ok := c.Node().(*ast.FuncLit)
		if !ok {
			return nil
		}
		fc, ok1 := c.Parent().Node().(*ast.CallExpr)
		d, ok2 := c.Parent().Parent().Node().(*ast.DeferStmt)
		if !ok1 || !ok2 || fc.Fun != lit || d.Call != fc || enclosingOf(c.Parent().Parent()) != fn {
			return nil
		}
		body, ok := c.FindNode(lit.Body)
		if !ok {
			return nil
		}
		dl := &deferral{at: d}
		dl.guard(pass, fnCur, func(res *types.Var) (bool, ast.Node) {
			isRes := func(e ast.Expr) bool { return identOf(pass, e) == res }
			if ok, set := errGuarded(pass, body, []token.Pos{call.Pos()}, isRes); ok || set != nil {
				return ok, set
			}
			return calleeGuarded(pass, in, call, res, false) // the guard in the function the literal hands the object to
		})
		return dl
	}
	return nil
}

// guard finds the named error result of fn whose being non-nil the
// deferred write needs (guarded tells, for one, whether it does and where
// it is set on the way), unless code of fn other than d.at may set it
// later than the body's own assignments (which errorAfter reads): an
// assignment in another deferred statement or in any function literal (a
// closure a deferred call may run: fail := func(e error) { retErr = e }),
// or &res taken outside d.at (a pointer written through later). Such code
// may run before d.at's, the guard then testing its value.
func (d *deferral) guard(pass *analysis.Pass, fn inspector.Cursor, guarded func(*types.Var) (bool, ast.Node)) {
	for _, res := range errorResults(pass, fn.Node()) {
		ok, set := guarded(res)
		if ok {
			set = writesVar(pass, fn, res, true, func(n ast.Node) bool { return n == d.at })
		}
		if set != nil {
			d.set, d.setOf = set, res
			return
		}
		if ok {
			d.result = res
			return
		}
	}
}

// calleeGuarded reports whether the function call calls, declared in the
// package, writes the object it is handed only when the error it is
// given is not nil: a parameter given &res (tested as *p), or, where the
// call is made as the function returns (atDefer false), one given res.
func calleeGuarded(pass *analysis.Pass, in *inspector.Inspector, call *ast.CallExpr, res *types.Var, atDefer bool) (bool, ast.Node) {
	if call == nil {
		return false, nil
	}
	decl := declOf(pass, kube.CalledFunc(pass, call))
	if decl == nil || decl.Body == nil {
		return false, nil
	}
	body, ok := in.Root().FindNode(decl.Body)
	if !ok {
		return false, nil
	}
	params := paramVars(pass, decl)
	var errParam *types.Var
	star := false
	for i, a := range call.Args {
		if i >= len(params) {
			break
		}
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && identOf(pass, u.X) == res {
			errParam, star = params[i], true
		} else if identOf(pass, a) == res && !atDefer {
			errParam = params[i]
		}
	}
	if errParam == nil {
		return false, nil
	}
	isErr := func(e ast.Expr) bool {
		if star {
			s, ok := ast.Unparen(e).(*ast.StarExpr)
			return ok && identOf(pass, s.X) == errParam
		}
		return identOf(pass, e) == errParam
	}
	// The writes: each call the object's parameter is handed to or
	// written by.
	var targets []token.Pos
	for i, a := range call.Args {
		if i >= len(params) || params[i] == errParam || identOf(pass, a) == nil {
			continue
		}
		p := params[i]
		for cc := range body.Preorder((*ast.CallExpr)(nil)) {
			c := cc.Node().(*ast.CallExpr)
			for _, x := range c.Args {
				if identOf(pass, x) == p {
					targets = append(targets, c.Pos())
				}
			}
		}
	}
	if len(targets) == 0 {
		return false, nil
	}
	return errGuarded(pass, body, targets, isErr)
}

// errGuarded reports whether, in body, no path from its entry reaches a
// statement holding one of the targets with the error isErr tells not
// tested non-nil on the way: it is taken nil, and a test of it that it
// fails is a branch no path takes. An assignment to it on the way makes
// it unknown: the target is reached, and set says where.
func errGuarded(pass *analysis.Pass, body inspector.Cursor, targets []token.Pos, isErr func(ast.Expr) bool) (ok bool, set ast.Node) {
	g := cfg.New(body.Node().(*ast.BlockStmt), mayReturn(pass))
	seen := map[*cfg.Block]bool{}
	var walk func(b *cfg.Block) bool
	walk = func(b *cfg.Block) bool {
		if seen[b] {
			return true
		}
		seen[b] = true
		for _, n := range b.Nodes {
			for _, t := range targets {
				if n.Pos() <= t && t < n.End() {
					return false
				}
			}
			if s := assigns(body, n, isErr); s != nil {
				set = s
				return false
			}
		}
		succs := b.Succs
		if len(succs) == 2 {
			if nilWhen, ok := nilTest(b.Nodes[len(b.Nodes)-1], isErr); ok {
				succs = succs[nilWhen : nilWhen+1] // the branch taken with it nil
			}
		}
		for _, s := range succs {
			if !walk(s) {
				return false
			}
		}
		return true
	}
	return walk(g.Blocks[0]), set
}

// nilTest reports, for a condition n, the index of the successor taken
// when every expression isErr tells is nil: n is such an e == nil or e !=
// nil, or a !, && or || of conditions whose value that decides.
func nilTest(n ast.Node, isErr func(ast.Expr) bool) (int, bool) {
	e, ok := n.(ast.Expr)
	if !ok {
		return 0, false
	}
	if v, ok := nilValue(e, isErr); ok {
		if v {
			return 0, true
		}
		return 1, true
	}
	return 0, false
}

// nilValue is the value of the condition e when the expressions isErr
// tells are nil, when that decides it.
func nilValue(e ast.Expr, isErr func(ast.Expr) bool) (value, known bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			v, ok := nilValue(x.X, isErr)
			return !v, ok
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ:
			l, r := x.X, x.Y
			if isNil(l) {
				l, r = r, l
			}
			if isNil(r) && isErr(l) {
				return x.Op == token.EQL, true
			}
		case token.LAND, token.LOR:
			l, lok := nilValue(x.X, isErr)
			r, rok := nilValue(x.Y, isErr)
			short := x.Op == token.LOR // the value that decides alone
			switch {
			case lok && l == short, rok && r == short:
				return short, true
			case lok && rok:
				return !short, true
			}
		}
	}
	return false, false
}

// assigns returns the node of n, a node under root, that assigns an
// expression isErr tells or takes its address, outside function literals
// (writesOf); nil when none, n itself when n is not under root (but for
// go/cfg's own return at a body's end).
func assigns(root inspector.Cursor, n ast.Node, isErr func(ast.Expr) bool) ast.Node {
	c, ok := root.FindNode(n)
	if !ok {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 0 {
			return nil // go/cfg's return at the body's end, not in the syntax
		}
		return n
	}
	for w := range writesOf(c, isErr, func(n ast.Node) bool { _, lit := n.(*ast.FuncLit); return lit }) {
		return w.Node()
	}
	return nil
}

// errorResults are fn's named results of type error.
func errorResults(pass *analysis.Pass, fn ast.Node) []*types.Var {
	var out []*types.Var
	for _, v := range resultVars(pass, fn) {
		if v.Name() != "" && v.Name() != "_" && types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
			out = append(out, v)
		}
	}
	return out
}

// mayReturn is go/cfg's: every call returns but panic's.
func mayReturn(pass *analysis.Pass) func(*ast.CallExpr) bool {
	return func(call *ast.CallExpr) bool {
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		return !ok || id.Name != "panic" || pass.TypesInfo.Uses[id] != types.Universe.Lookup("panic")
	}
}

// deferredAt reports whether path[i] (a path from a node up to its file)
// is a function literal deferred where it is declared: defer func() {
// ... }().
func deferredAt(path []ast.Node, i int) bool {
	lit, ok := path[i].(*ast.FuncLit)
	if !ok || i+2 >= len(path) {
		return false
	}
	call, ok := path[i+1].(*ast.CallExpr)
	d, ok2 := path[i+2].(*ast.DeferStmt)
	return ok && ok2 && call.Fun == lit && d.Call == call
}

// inDefer reports whether the node path starts from is in a deferred
// literal of its function: it runs after every statement of the
// function, whatever their place.
func inDefer(path []ast.Node) bool {
	for i, n := range path {
		switch n.(type) {
		case *ast.FuncLit:
			if deferredAt(path, i) {
				return true
			}
		case *ast.FuncDecl:
			return false
		}
	}
	return false
}

// deferredCall reports whether call, on path (from a node of it up to
// the file), is the call of a defer statement (defer r.markReady(ctx,
// w)): it runs as the function returns, after the code below the
// statement; its arguments are taken there.
func deferredCall(path []ast.Node, call *ast.CallExpr) bool {
	i := slices.Index(path, ast.Node(call))
	if i < 0 || i+1 >= len(path) {
		return false
	}
	d, ok := path[i+1].(*ast.DeferStmt)
	return ok && d.Call == call
}

// deferredLit is deferredAt on a stack from the root down: stack[i] is a
// function literal deferred where it is declared (defer func() { ... }()).
func deferredLit(stack []ast.Node, i int) bool {
	lit, ok := stack[i].(*ast.FuncLit)
	if !ok || i < 2 {
		return false
	}
	call, ok := stack[i-1].(*ast.CallExpr)
	d, ok2 := stack[i-2].(*ast.DeferStmt)
	return ok && ok2 && call.Fun == lit && d.Call == call
}

// deferredLits are the literals deferred where they are declared (defer
// func() { ... }()) in fn, outside its other literals, that do not hold
// call, in source order: each runs as fn returns, after call.
func deferredLits(fn ast.Node, call *ast.CallExpr) []*ast.FuncLit {
	var lits []*ast.FuncLit
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && (call.Pos() < lit.Pos() || call.Pos() >= lit.End()) {
				lits = append(lits, lit)
			}
		case *ast.FuncLit:
			return n == fn
		}
		return true
	})
	return lits
}
