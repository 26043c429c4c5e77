package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A read in a helper: the object's Get is in a function of the package
// the write's function calls, r.load(ctx, key, w) (the object handed
// in) or w, err := r.get(ctx, key) (the object handed back). When the
// helper's body only reads into the object and hands it back (no change
// of it between its Get and its return, no other value returned in its
// place, such as a cache's), the object as the call leaves it is the
// Get's: the call is the object's read, and the patcher is made right
// after it (after its error's if), as after a Get of the write's own
// function. Else the write stays, naming the line of the helper that
// keeps it (noGet, migratewhy.go).

// helperRead is the helper's read of m.obj that the statement s (or its
// if's init) makes: the call, its function, the helper's Get, and why
// the object may not be the Get's as the call returns ("" when it is).
// A nil call when s calls no such helper; a nil Get for a helper of
// another package, read from its ParamsFact (importedRead).
func helperRead(m reads, s ast.Stmt) (*ast.CallExpr, *types.Func, *ast.CallExpr, string) {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		s = is.Init
	}
	var e ast.Expr
	var lhs []ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil, nil, nil, ""
		}
		e, lhs = s.Rhs[0], s.Lhs
	default:
		return nil, nil, nil, ""
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil, nil, ""
	}
	fn := kube.CalledFunc(m.pass, call)
	decl := m.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return importedRead(m, call, fn, lhs)
	}
	params := paramVars(m.pass, decl)
	for i, arg := range call.Args {
		if i < len(params) && params[i] != nil && passesObj(m.pass.TypesInfo, m.obj, arg) {
			if get, why := readInto(m, decl, i); get != nil {
				return call, fn, get, why
			}
		}
	}
	if len(lhs) == 0 || identOf(m.pass, lhs[0]) != m.obj {
		return nil, nil, nil, ""
	}
	if get, why := readInto(m, decl, -1); get != nil {
		return call, fn, get, why
	}
	return nil, nil, nil, ""
}

// readInto is decl's Get into its parameter i (its first result when i
// is -1), and why the object as a call of it returns may not be the
// Get's ("" when it is); a nil Get when it has none. The rule of a
// helper of the package and of ParamsFact.Reads (originhelperfact.go).
func readInto(m reads, decl *ast.FuncDecl, i int) (*ast.CallExpr, string) {
	if i >= 0 {
		params := paramVars(m.pass, decl)
		if i >= len(params) || params[i] == nil {
			return nil, ""
		}
		get := getIntoVar(m, decl.Body, params[i])
		if get == nil {
			return nil, ""
		}
		why := getFirst(m, decl.Body, get)
		if why == "" {
			why = onlyReadInto(m, decl.Body, params[i], get)
		}
		return get, why
	}
	if decl.Type.Results == nil {
		return nil, ""
	}
	v, get, why := returnedRead(m, decl)
	if v == nil {
		return nil, ""
	}
	if why == "" {
		why = getFirst(m, decl.Body, get)
	}
	if why == "" {
		why = onlyReadInto(m, decl.Body, v, get)
	}
	return get, why
}

// getFirst says why the helper's Get may not run on every path to its
// return: it is not in a statement of the body's own list (a branch, a
// loop, a function literal), or a return comes before it; "" when it
// runs first thing that returns.
func getFirst(m reads, body *ast.BlockStmt, get *ast.CallExpr) string {
	for _, s := range body.List {
		if s.End() <= get.Pos() {
			if ret := firstReturn(s); ret != nil {
				return fmt.Sprintf("may return at %s, before its Get", m.where(ret.Pos()))
			}
			continue
		}
		if s.Pos() > get.Pos() {
			break
		}
		var top ast.Node = s
		if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
			top = is.Init
		}
		switch top.(type) {
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ReturnStmt:
			if top.Pos() <= get.Pos() && get.End() <= top.End() {
				return ""
			}
		}
		return fmt.Sprintf("reads it with Get at %s on some of its paths only", m.where(get.Pos()))
	}
	return ""
}

// firstReturn is the first return statement in s, outside function
// literals, or nil.
func firstReturn(s ast.Stmt) *ast.ReturnStmt {
	var ret *ast.ReturnStmt
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if ret == nil {
				ret = n
			}
		}
		return ret == nil
	})
	return ret
}

// A returned is one return of a helper's first result: the local
// variable it gives (v or &v), or nil for another value (not nil).
type returned struct {
	v   *types.Var
	ret *ast.ReturnStmt
}

// returnedVars are decl's returns of its first result but nil.
func returnedVars(m reads, decl *ast.FuncDecl) []returned {
	var out []returned
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 {
			return true
		}
		r := ast.Unparen(ret.Results[0])
		if id, ok := r.(*ast.Ident); ok && m.pass.TypesInfo.Uses[id] == types.Universe.Lookup("nil") {
			return true
		}
		rv := varOf(m.pass.TypesInfo, r)
		if rv != nil && (rv.Pos() < decl.Body.Pos() || rv.Pos() >= decl.Body.End()) {
			rv = nil // not a local of the helper
		}
		out = append(out, returned{rv, ret})
		return true
	})
	return out
}

// returnedRead is the variable of decl's returns its Get reads into,
// with the Get, and why another value may be returned in its place (a
// cache's copy); nil when none is.
func returnedRead(m reads, decl *ast.FuncDecl) (*types.Var, *ast.CallExpr, string) {
	rets := returnedVars(m, decl)
	var v *types.Var
	var get *ast.CallExpr
	for _, r := range rets {
		if r.v != nil && v == nil {
			if g := getIntoVar(m, decl.Body, r.v); g != nil {
				v, get = r.v, g
			}
		}
	}
	if v == nil {
		return nil, nil, ""
	}
	for _, r := range rets {
		if r.v != v {
			return v, get, fmt.Sprintf("may return %s at %s instead, which its Get does not read", types.ExprString(r.ret.Results[0]), m.where(r.ret.Pos()))
		}
	}
	return v, get, ""
}

// getIntoVar is the first c.Get(ctx, key, v) (or &v) in body, or nil.
func getIntoVar(m reads, body *ast.BlockStmt, v *types.Var) *ast.CallExpr {
	var get *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if get != nil || !ok {
			return get == nil
		}
		if len(call.Args) == 3 && m.clientWrite(call) == "Get" && varOf(m.pass.TypesInfo, call.Args[2]) == v {
			get = call
		}
		return true
	})
	return get
}

// varOf is the variable e is, or whose address it takes.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// onlyReadInto says where body does more with v than read into it with
// get, return it, and read its fields' values (a name for an error):
// a change, a call given it or a part of it, its address; "" when it
// does none.
func onlyReadInto(m reads, body *ast.BlockStmt, v *types.Var, get *ast.CallExpr) string {
	for c := range m.usesOf(body, v, body.Pos(), body.End()) {
		id := c.Node().(*ast.Ident)
		if get.Args[2].Pos() <= id.Pos() && id.End() <= get.Args[2].End() {
			continue
		}
		// Up through the selectors and index expressions it is the
		// operand of: what the use's value is.
		top := c
		for {
			p := top.Parent()
			if sel, ok := p.Node().(*ast.SelectorExpr); ok && sel.X == top.Node() {
				if s := m.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
					return fmt.Sprintf("calls %s at %s", types.ExprString(sel), m.where(sel.Pos()))
				}
				top = p
				continue
			}
			if par, ok := p.Node().(*ast.ParenExpr); ok && par.X == top.Node() {
				top = p
				continue
			}
			break
		}
		expr := top.Node().(ast.Expr)
		switch p := top.Parent().Node().(type) {
		case *ast.ReturnStmt:
			if top == c {
				continue // return v, nil
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND && top == c {
				if _, ret := top.Parent().Parent().Node().(*ast.ReturnStmt); ret {
					continue // return &v
				}
			}
		}
		if basic(m.pass.TypesInfo.TypeOf(expr)) && !strings.HasPrefix(useText(top.Parent().Node(), expr, ""), "changes") && !isAddr(top.Parent().Node()) {
			continue // a value read: fmt.Errorf("...%s", w.Name), w.Name == ""
		}
		return useText(top.Parent().Node(), expr, m.where(expr.Pos()))
	}
	return ""
}

// isAddr reports whether n is &x.
func isAddr(n ast.Node) bool {
	u, ok := n.(*ast.UnaryExpr)
	return ok && u.Op == token.AND
}

// basic reports whether t is a basic type's (a string, a number, a
// bool): a copy that shares nothing with the object.
func basic(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// useText says what the node p does with expr, a use of a helper's
// object other than a read into it or of a value of it, at where.
func useText(p ast.Node, expr ast.Expr, where string) string {
	x := types.ExprString(expr)
	switch p := p.(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == expr {
				return "changes " + x + " at " + where
			}
		}
		return "copies " + x + " at " + where
	case *ast.IncDecStmt:
		return "changes " + x + " at " + where
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return "takes the address of " + x + " at " + where
		}
	case *ast.CallExpr:
		return "hands " + x + " to a call at " + where
	}
	return "uses " + x + " at " + where + " other than to read a value of it"
}

// helperReadBefore is helperRead for the last statement of a block
// enclosing the write, before it, that calls such a helper.
func helperReadBefore(m reads) (*ast.CallExpr, *types.Func, *ast.CallExpr, string) {
	for _, list := range m.enclosingLists() {
		var call, get *ast.CallExpr
		var fn *types.Func
		why := ""
		for _, s := range list {
			if s.End() > m.call.Pos() {
				break
			}
			if c, f, g, w := helperRead(m, s); c != nil && g != nil {
				call, fn, get, why = c, f, g, w // one of the package's: importedReadWhy has the others
			}
		}
		if call != nil {
			return call, fn, get, why
		}
	}
	return nil, nil, nil, ""
}
