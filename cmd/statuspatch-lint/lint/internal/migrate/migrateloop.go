package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
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
