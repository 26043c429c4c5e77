package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// findStmt finds the statement holding the loop, in a form whose error
// the patcher's Fetch and Retry can give in its place.
func (l *conflictLoop) findStmt() string {
	i := slices.Index(l.path, ast.Node(l.call))
	if i+1 >= len(l.path) {
		return "whose loop is not a statement's"
	}
	switch s := l.path[i+1].(type) {
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			if r != ast.Expr(l.call) && l.hasCall(r) {
				return fmt.Sprintf("returned at line %d beside a call", l.line(s))
			}
		}
		l.stmt = s
	case *ast.AssignStmt:
		id, ok := s.Lhs[0].(*ast.Ident)
		if len(s.Lhs) != 1 || !ok || id.Name == "_" {
			return fmt.Sprintf("whose error is not assigned to one variable at line %d", l.line(s))
		}
		l.result = id
		if is, ok := l.path[i+2].(*ast.IfStmt); ok && is.Init == ast.Stmt(s) {
			if l.scopeOf(is).Lookup(id.Name) != nil || l.shadows(is, id.Name) {
				return fmt.Sprintf("whose if at line %d declares %s, a name the block uses", l.line(is), id.Name)
			}
			l.stmt = is
			return ""
		}
		l.stmt = s
	default:
		return "whose loop is not a statement's"
	}
	return ""
}

// returnsBefore checks fn's returns before the write: each leaves the
// status as the Get read it, so Retry sends nothing there either.
func (l *conflictLoop) returnsBefore() string {
	cur, _ := l.cursor(l.lit.Body)
	for c := range cur.Preorder((*ast.ReturnStmt)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			return fmt.Sprintf("which has a function literal at line %d", l.line(n))
		case *ast.DeferStmt, *ast.GoStmt:
			return fmt.Sprintf("which has a defer or go statement at line %d", l.line(n))
		case *ast.ReturnStmt:
			if n.Pos() < l.lit.Body.List[l.after-1].End() || n == l.lit.Body.List[len(l.lit.Body.List)-1] || l.ifErr != nil && n.Pos() >= l.ifErr.Pos() && n.End() <= l.ifErr.End() {
				continue
			}
			if l.changedBefore(n.Pos()) {
				return fmt.Sprintf("whose return at line %d follows a change of %s", l.line(n), l.obj.Name())
			}
		}
	}
	return ""
}

// declared finds where the object is declared: in fn (before the Get),
// or before the loop, when the loop's statement is where it is used.
func (l *conflictLoop) declared() string {
	if l.decl != nil {
		return ""
	}
	def := l.outerDef()
	l.outer = true
	if def == nil {
		// A parameter, a result or a package's variable: Object() would
		// rebind the name alone, the caller's object left as it was.
		return fmt.Sprintf("and %s is declared outside the function (a parameter or a package's variable), whose holders would not see the object Retry wrote", l.obj.Name())
	}
	// Every use in the file: the loop may sit in a function literal of
	// the function declaring the object.
	for c := range l.usesOf(l.file, l.obj, token.NoPos, token.Pos(1<<62)) {
		if p := c.Node().Pos(); p < l.lit.Pos() || p >= l.lit.End() {
			if def == nil || p < def.Pos() || p >= def.End() {
				l.used = true
				l.usedAfter = l.usedAfter || readAfter(l, c, def)
			}
		}
	}
	if l.used {
		if _, ok := l.stmt.(*ast.ReturnStmt); ok {
			return fmt.Sprintf("returned, and %s is used outside it", l.obj.Name())
		}
		if !l.fresh(def) {
			return fmt.Sprintf("and %s, used outside it, is declared at line %d from an object that may be held elsewhere: Object() would rebind %s alone", l.obj.Name(), l.line(def), l.obj.Name())
		}
		return ""
	}
	if l.keyObj {
		return "" // the declaration stays: the Fetch's key is made from it
	}
	if as, ok := def.(*ast.AssignStmt); ok && l.hasCall(as.Rhs[0]) {
		return fmt.Sprintf("and %s's declaration at line %d, which goes, calls a function", l.obj.Name(), l.line(def))
	}
	l.decl = def
	return ""
}

// changedBefore reports whether fn may change the object's status, or
// hand the object on, between its Get and pos.
func (l *conflictLoop) changedBefore(pos token.Pos) bool {
	from := l.lit.Body.List[l.after-1].End()
	for c := range l.usesOf(l.lit.Body, l.obj, from, pos) {
		switch p := c.Parent().Node().(type) {
		case *ast.CallExpr:
			if p.Fun != c.Node() {
				return true
			}
		case *ast.AssignStmt:
			if isLHS(p, c.Node()) {
				return true
			}
		}
	}
	return reads{l.migration}.statusChangedBetween(from, pos)
}

// outerDef is the statement declaring the object before the loop, alone
// (obj := x, var obj = x), or nil.
func (l *conflictLoop) outerDef() ast.Stmt {
	cur, ok := l.reads().defCursor(l.obj)
	if !ok {
		return nil
	}
	switch s := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE && len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			return s
		}
	case *ast.ValueSpec:
		gd, _ := cur.Parent().Parent().Node().(*ast.GenDecl)
		if ds, ok := cur.Parent().Parent().Parent().Node().(*ast.DeclStmt); ok && len(gd.Specs) == 1 && len(s.Names) == 1 {
			return ds
		}
	}
	return nil
}

// fresh reports whether the declaration def makes a new object
// (&Kind{...}, new(Kind)), held by nothing but its variable when
// declared.
func (l *conflictLoop) fresh(def ast.Stmt) bool {
	var val ast.Expr
	switch s := def.(type) {
	case *ast.AssignStmt:
		val = s.Rhs[0]
	case *ast.DeclStmt:
		vs := s.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		if len(vs.Values) == 1 {
			val = vs.Values[0]
		} else if len(vs.Values) == 0 && valueObj(l.obj) {
			return true // var obj T: a value of its own (migratevalue.go)
		}
	}
	switch e := ast.Unparen(val).(type) {
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(e.X).(*ast.CompositeLit)
		return e.Op == token.AND && lit
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		_, builtin := l.pass.TypesInfo.Uses[id].(*types.Builtin)
		return ok && builtin && id.Name == "new"
	}
	return false
}

// readAfter reports whether a use of the object outside the loop's
// function may read it after the loop's statement: below the loop, in a
// loop holding the statement but not the declaration (the next round),
// or in a function literal (a defer, a closure) that may run later. A
// use before alone needs no Object() after the Retry: an assignment
// nothing reads is staticcheck's SA4006 in the user's lint.
func readAfter(l *conflictLoop, use inspector.Cursor, def ast.Stmt) bool {
	if use.Node().Pos() >= l.lit.End() {
		return true
	}
	holds := func(n, in ast.Node) bool { return in.Pos() <= n.Pos() && n.End() <= in.End() }
	for e := range use.Enclosing((*ast.FuncLit)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		n := e.Node()
		switch {
		case holds(l.stmt, n) && (def == nil || !holds(def, n)):
			if _, ok := n.(*ast.FuncLit); !ok {
				return true
			}
		case !holds(l.stmt, n):
			if _, ok := n.(*ast.FuncLit); ok {
				return true
			}
		}
	}
	return false
}
