package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// A conflictLoop is a status write in the function of one of client-go's
// conflict loops: retry.RetryOnConflict(backoff, fn), or
// retry.OnError(backoff, apierrors.IsConflict, fn), where fn reads the
// object with Get, decides its status and writes it last. A patcher made
// after that Get (a Flush in the loop) answers a conflict, or its own
// refusal of a stale copy, with another Get from the same lagging cache
// and another decision; the loop becomes the patcher's instead:
//
//	objPatcher, err := patchers.Fetch<Kind>StatusPatcher(ctx, c, key)
//	if err == nil {
//		err = objPatcher.Retry(ctx, func(obj *Kind) error { <fn after its Get>; return nil })
//		obj = objPatcher.Object() // when obj is declared before the loop and used after it
//	}
//
// A value used after the loop (var obj Kind) is read into itself with
// Fetch<Kind>StatusPatcherInto(ctx, c, key, &obj) where the generated
// package has it: Retry re-reads in place, so obj is the patcher's object
// and takes no copy.
//
// fn's returns before the write stay mutate's: a return with no status
// change before it leaves nothing for Retry to send, as the loop sent
// nothing. The statement holding the loop (err := loop, err = loop,
// if err := loop; ..., return ..., loop) keeps its error.
type conflictLoop struct {
	*migration
	call      *ast.CallExpr // the loop's call
	name      string        // its function's name as the source spells it: retry.RetryOnConflict
	lit       *ast.FuncLit  // fn
	stmt      ast.Stmt      // the statement holding the loop's call
	get       *ast.CallExpr // fn's Get of the object
	after     int           // the index in fn's body of the first statement after the Get and its check
	decl      ast.Stmt      // the object's declaration: in fn, dropped; before the loop, dropped when unused after it
	outer     bool          // the object is declared before the loop
	used      bool          // and used outside it
	usedAfter bool          // and read after it: set to the patcher's object
	keyObj    bool          // the Get's key is made from the object: its declaration stays
	base      ast.Stmt      // a merge patch's base taken in fn, dropped
	ifErr     *ast.IfStmt   // the write as if err := write; err != nil { return err }, before fn's return nil
	result    *ast.Ident    // the loop's error variable (err := loop), or nil in a return
}

// loopOf returns the conflict loop whose function holds m's write, nil
// when there is none, or why a write in one stays: a Flush there would
// decide again from the cache on a conflict.
func loopOf(m *migration) (*conflictLoop, string) {
	l := &conflictLoop{migration: m}
	i := slices.IndexFunc(m.path, func(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok })
	if i < 0 || i+1 >= len(m.path) || inDefer(m.path[i:]) {
		return nil, ""
	}
	l.lit = m.path[i].(*ast.FuncLit)
	call, ok := m.path[i+1].(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[len(call.Args)-1] != ast.Expr(l.lit) || !l.conflictRetry(call) {
		return nil, ""
	}
	l.call, l.name = call, types.ExprString(call.Fun)
	if why := l.plan(); why != "" {
		return nil, m.shapeWhy(fmt.Sprintf("the write is in %s's function, %s (make the Get a Fetch%s before the loop, and the loop its Retry, by hand)", l.name, why, m.patcherType))
	}
	return l, ""
}

// conflictRetry reports whether call is retry.RetryOnConflict(b, fn) or
// retry.OnError(b, apierrors.IsConflict, fn) of client-go.
func (l *conflictLoop) conflictRetry(call *ast.CallExpr) bool {
	fn := kube.CalledFunc(l.pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "k8s.io/client-go/util/retry" {
		return false
	}
	switch {
	case fn.Name() == "RetryOnConflict" && len(call.Args) == 2:
		return true
	case fn.Name() == "OnError" && len(call.Args) == 3:
		var id *ast.Ident
		switch e := ast.Unparen(call.Args[1]).(type) {
		case *ast.Ident:
			id = e
		case *ast.SelectorExpr:
			id = e.Sel
		}
		f, ok := l.pass.TypesInfo.Uses[id].(*types.Func)
		return ok && f.Pkg() != nil && f.Pkg().Path() == "k8s.io/apimachinery/pkg/api/errors" && f.Name() == "IsConflict"
	}
	return false
}

// plan finds the loop's parts, or says what keeps the write in it.
func (l *conflictLoop) plan() string {
	if l.lit.Type.Params.NumFields() != 0 {
		return "which takes parameters"
	}
	if why := l.loopBackoff(); why != "" {
		return why
	}
	if why := l.findGet(); why != "" {
		return why
	}
	if why := l.findWrite(); why != "" {
		return why
	}
	if why := l.findStmt(); why != "" {
		return why
	}
	if why := l.returnsBefore(); why != "" {
		return why
	}
	return l.declared()
}

// findGet finds fn's Get of the object, what precedes it (at most the
// object's declaration) and its error check, which must return the
// error as is: it becomes the Fetch's.
func (l *conflictLoop) findGet() string {
	list := l.lit.Body.List
	gi := slices.IndexFunc(list, l.reads().isGetStmt)
	if gi < 0 {
		return l.obj.Name() + " is not read with Get in it"
	}
	for _, s := range list[:gi] {
		if def, _ := l.definition(l.obj); def != s || gi > 1 {
			return fmt.Sprintf("which does more than declare %s before its Get at line %d", l.obj.Name(), l.line(list[gi]))
		}
		l.decl = s
	}
	s, check := list[gi], ast.Stmt(nil)
	var errVar ast.Expr
	if is, ok := s.(*ast.IfStmt); ok {
		as, _ := is.Init.(*ast.AssignStmt)
		if as == nil || len(as.Lhs) != 1 || is.Else != nil {
			return fmt.Sprintf("whose Get at line %d is not checked as if err := Get(...); err != nil { return err }", l.line(s))
		}
		s, check, errVar = as, is, as.Lhs[0]
		l.after = gi + 1
	} else if as, ok := s.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && gi+1 < len(list) && l.checksErr(list[gi+1], as) {
		check, errVar = list[gi+1], as.Lhs[0]
		l.after = gi + 2
	} else {
		return fmt.Sprintf("whose Get at line %d does not return its error", l.line(s))
	}
	l.get = ast.Unparen(s.(*ast.AssignStmt).Rhs[0]).(*ast.CallExpr)
	if is := check.(*ast.IfStmt); !l.returnsErr(is, errVar) {
		return fmt.Sprintf("whose Get at line %d returns its error changed", l.line(list[gi]))
	}
	if len(l.get.Args) != 3 {
		return fmt.Sprintf("whose Get at line %d has options", l.line(list[gi]))
	}
	if sel, ok := ast.Unparen(l.get.Fun).(*ast.SelectorExpr); !ok || types.ExprString(sel.X) != types.ExprString(l.client) {
		return fmt.Sprintf("whose Get at line %d reads with another client than the write's", l.line(list[gi]))
	}
	for c := range l.usesIn(l.get.Args[1]) {
		if o := l.pass.TypesInfo.Uses[c]; o != nil && o.Pos() >= l.lit.Pos() && o.Pos() < l.lit.End() {
			return fmt.Sprintf("whose Get at line %d reads a key made in it", l.line(list[gi]))
		} else if o == l.obj {
			l.keyObj = true
		}
	}
	return ""
}

// findWrite checks that the write ends fn: return write, or if err :=
// write; err != nil { return err } then return nil; a merge patch's base
// is a copy of the object taken in fn after the Get, used only by it.
func (l *conflictLoop) findWrite() string {
	list := l.lit.Body.List
	last := list[len(list)-1]
	if ret, ok := last.(*ast.ReturnStmt); !ok || len(ret.Results) != 1 || ast.Unparen(ret.Results[0]) != ast.Expr(l.migration.call) {
		if !ok || len(ret.Results) != 1 || !isNil(ret.Results[0]) || len(list) < 2 {
			return "where it is not the last statement (return write)"
		}
		is, ok := list[len(list)-2].(*ast.IfStmt)
		as, _ := stmtOf(is)
		if !ok || as == nil || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(l.migration.call) || len(as.Lhs) != 1 {
			return "where it is not the last statement (return write)"
		}
		if !l.returnsErr(is, as.Lhs[0]) {
			return fmt.Sprintf("where the write's error is returned changed at line %d", l.line(is))
		}
		l.ifErr = is
	}
	if statusVerb(l.migration.call) != "Patch" {
		return ""
	}
	mf, ok := ast.Unparen(l.migration.call.Args[2]).(*ast.CallExpr)
	if !ok || !l.isMergeFrom(mf) {
		return "where the patch is not a client.MergeFrom of a copy"
	}
	id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident)
	v, _ := l.pass.TypesInfo.Uses[id].(*types.Var)
	def, val := l.definition(v)
	if !ok || def == nil || !l.reads().isDeepCopyOfObj(val) || l.uses(v) != 1 || slices.Index(list, def) < l.after {
		return "where the patch's base is not a copy of " + l.obj.Name() + " taken in it after the Get, for this write alone"
	}
	if l.changedBefore(def.Pos()) {
		return fmt.Sprintf("where the status changes before the base is taken at line %d", l.line(def))
	}
	l.base = def
	return ""
}

// stmtOf returns the if's init assignment.
func stmtOf(is *ast.IfStmt) (*ast.AssignStmt, bool) {
	if is == nil {
		return nil, false
	}
	as, ok := is.Init.(*ast.AssignStmt)
	return as, ok
}

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
