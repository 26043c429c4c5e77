package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// An apply beside the merge writes of its object in one function: they
// move onto a patcher in merge mode, and one in apply mode made at the
// same read would be alive at once with it, its lock older than their
// writes. When each of them runs before the apply, outside any loop
// around it, the apply's patcher is made right before it instead
// (applyMove.late), after the last of them: its lock is the one their
// last write left, and each must have stopped the function on an error
// (a failed write leaves the old resourceVersion, a lock the apply would
// 409 on where the handwritten apply, no lock, was stored). A deferred
// write runs after the apply (lifedefer.go): only when the apply failed
// (it stored nothing, and the merge patcher's lock still holds) may it
// stay beside it.

// A besideWrite is a status write of the apply's object in its function
// other than the apply: a write of it, or a call handing it to a function
// whose body writes its status.
type besideWrite struct {
	call   *ast.CallExpr
	cur    inspector.Cursor
	what   string    // "(Status().Update)", " by recordError"
	defers *deferral // when it is deferred code of the function
}

// beside says why the apply cannot move beside the other status writes
// of its object in the function, or sets a.late.
func (a *applyMove) beside(files Files, ws []*Write) string {
	if a.obj == nil {
		return ""
	}
	fn := a.enclosingFunc()
	stmt := a.enclosingStmt()
	writes := a.besideWrites(files, ws, fn)
	if len(writes) == 0 {
		return ""
	}
	late := stmt != nil && !a.inLoop()
	for _, w := range writes {
		late = late && (w.defers != nil || w.call.End() <= stmt.Pos())
	}
	if !late {
		w := writes[0]
		for _, o := range writes {
			if o.defers == nil && o.call.Pos() > a.call.Pos() {
				w = o
				break
			}
		}
		return a.shapeWhy(fmt.Sprintf("%s's status is also written at %s%s: a patcher in apply mode made at the read for this write would be alive at once with that write's, its lock older than that write (apply mode and merge writes cannot share a patcher); make this write an ApplyStatus of a patcher made in apply mode after the last of them, or make them applies",
			a.obj.Name(), a.where(w.call.Pos()), w.what))
	}
	for _, w := range writes {
		if w.defers != nil {
			if why := a.deferredAfter(fn, w); why != "" {
				return a.shapeWhy(why)
			}
			continue
		}
		if why := a.stopsOnError(w.call, fn); why != "" {
			return a.shapeWhy(fmt.Sprintf("%s's status is also written at %s%s, %s: a patcher in apply mode made after it would take the lock of a write that may not have happened; return that write's error, or make them applies",
				a.obj.Name(), a.where(w.call.Pos()), w.what, why))
		}
	}
	// The patcher made right before the apply takes the object as it is
	// there as its base: a change since the last write (its status set in
	// memory for the apply to send) would be in the base, and the apply,
	// finding it there, would send nothing.
	if l := newLife(&a.site, a.obj); l == nil || !l.freshAt(cfgNode(stmt)) {
		at := "before the apply"
		if l != nil && l.changedAt != nil {
			at = "at " + a.where(l.changedAt.Pos())
		}
		return a.shapeWhy(fmt.Sprintf("%s may be changed after its last status write, %s: a patcher in apply mode made right before the apply would take that change as its base, and the apply would not send it; make the change after the apply, or make the writes applies",
			a.obj.Name(), at))
	}
	a.late = true
	return ""
}

// cfgNode is the node of statement s on the function's control-flow graph
// (go/cfg): an if's or a switch's init (or its condition), a var
// declaration's first spec, a range's operand, else s.
func cfgNode(s ast.Stmt) ast.Node {
	switch s := s.(type) {
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) > 0 {
			return gd.Specs[0] // var n int32 before a counting loop (issue 80, U4's E1)
		}
	case *ast.RangeStmt:
		return s.X
	case *ast.IfStmt:
		if s.Init != nil {
			return s.Init
		}
		return s.Cond
	case *ast.SwitchStmt:
		if s.Init != nil {
			return s.Init
		}
		if s.Tag != nil {
			return s.Tag
		}
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			return s.Init
		}
		return s.Assign
	}
	return s
}

// besideWrites are the status writes of the object in fn other than the
// apply, in source order: its handwritten merge writes, and its hand-ons
// to functions writing its status (from their bodies in the package, or
// an exported helper's fact).
func (a *applyMove) besideWrites(files Files, ws []*Write, fn ast.Node) []besideWrite {
	var out []besideWrite
	add := func(call *ast.CallExpr, what string) {
		if cur, ok := a.cursor(call); ok {
			out = append(out, besideWrite{call: call, cur: cur, what: what, defers: deferralOf(a.pass, cur, fn)})
		}
	}
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call == a.call || o.Generated || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 {
			continue
		}
		if a.isObj(call.Args[1]) && o.Verb != "Apply" {
			add(call, " (Status()."+statusVerb(call)+")")
		}
	}
	cur, ok := a.cursor(fn)
	if !ok {
		return out
	}
	for c := range cur.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if call == a.call || isStatusWrite(call) {
			continue
		}
		callee := kube.CalledFunc(a.pass, call)
		for i, arg := range call.Args {
			if a.isObj(arg) && (a.helperWrite(callee, i) || writesParam(a.migration, callee, i)) {
				add(call, " by "+funcName(callee, a.pass.Pkg))
				break
			}
		}
	}
	slices.SortFunc(out, func(x, y besideWrite) int { return int(x.call.Pos()) - int(y.call.Pos()) })
	return out
}

// writesParam reports whether fn, declared in the package, writes the
// status of its parameter i in its body.
func writesParam(m *migration, fn *types.Func, i int) bool {
	decl := declOf(m.pass, fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	params := paramVars(m.pass, decl)
	if i >= len(params) || params[i] == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isStatusWrite(c) && len(c.Args) >= 2 && identOf(m.pass, c.Args[1]) == params[i] {
			found = true
		}
		return !found
	})
	return found
}

// deferredAfter says why the deferred write w may run after the apply
// stored: unguarded, guarded by a result other deferred code sets, or by
// a named error result a return after the stored apply may make non-nil.
// "" when it runs after the apply only when the apply failed.
func (a *applyMove) deferredAfter(fn ast.Node, w besideWrite) string {
	d := w.defers
	what := fmt.Sprintf("%s's status is also written at %s%s, in the function deferred at %s", a.obj.Name(), a.where(w.call.Pos()), w.what, a.where(d.at.Pos()))
	const lock = "its merge patcher's lock would be older than the apply's write"
	switch {
	case d.set != nil:
		return fmt.Sprintf("%s, which runs when %s is not nil as the function returns, and %s is also set at %s: whether it runs after the apply stored is not known, and %s; make them applies", what, d.setOf.Name(), d.setOf.Name(), a.where(d.set.Pos()), lock)
	case d.result == nil:
		return fmt.Sprintf("%s, which may run whatever the function returns, after the apply stored too: %s; guard it with a named error result the function sets only on a failure (if retErr == nil { return }), or make them applies", what, lock)
	}
	l := newLife(&a.site, a.obj)
	if l == nil {
		return what + ": the function's paths are not known"
	}
	if r := l.errorAfter(a.call, d.result); r != nil {
		return fmt.Sprintf("%s, which runs when %s is not nil as the function returns, as it may be at %s after the apply stored: %s; return only the apply's error after it, or make them applies", what, d.result.Name(), a.where(r.Pos()), lock)
	}
	return ""
}

// inLoop reports whether the apply is in a for or range statement of its
// function.
func (a *applyMove) inLoop() bool {
	for _, n := range a.path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// stopsOnError says how the write call, before an apply, may let the
// function go on without it having happened: "" when it is return call,
// or its error is assigned and checked by an if err != nil whose body
// ends in a return, in fn's own body.
func (a *applyMove) stopsOnError(call *ast.CallExpr, fn ast.Node) string {
	cur, ok := a.cursor(call)
	if !ok {
		return "which -fix cannot place"
	}
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if c.Node() != fn {
			return fmt.Sprintf("in the function literal at %s, which may run after the apply or not at all", a.where(c.Node().Pos()))
		}
		break
	}
	parent := cur.Parent()
	switch s := parent.Node().(type) {
	case *ast.ReturnStmt:
		return ""
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 {
			break
		}
		if is, ok := parent.Parent().Node().(*ast.IfStmt); ok && is.Init == ast.Stmt(s) {
			if a.returnsOn(is, s.Lhs[0]) {
				return ""
			}
			break
		}
		list := stmtList(parent.Parent().Node())
		if i := slices.Index(list, ast.Stmt(s)); i >= 0 && i+1 < len(list) {
			if is, ok := list[i+1].(*ast.IfStmt); ok && is.Init == nil && a.returnsOn(is, s.Lhs[0]) {
				return ""
			}
		}
	}
	return "whose error does not return from the function"
}

// returnsOn reports whether is is if v != nil { ...; return ... }.
func (a *applyMove) returnsOn(is *ast.IfStmt, v ast.Expr) bool {
	cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ || !isNil(cond.Y) || len(is.Body.List) == 0 {
		return false
	}
	x, y := identOf(a.pass, cond.X), identOf(a.pass, v)
	if x == nil || x != y {
		return false
	}
	_, ret := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
	return ret
}

// resultVars are fn's results, in order.
func resultVars(pass *analysis.Pass, fn ast.Node) []*types.Var {
	var sig *types.Signature
	switch f := fn.(type) {
	case *ast.FuncDecl:
		if o, ok := pass.TypesInfo.Defs[f.Name].(*types.Func); ok {
			sig, _ = o.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = pass.TypesInfo.TypeOf(f).(*types.Signature)
	}
	if sig == nil {
		return nil
	}
	var out []*types.Var
	for i := range sig.Results().Len() {
		out = append(out, sig.Results().At(i))
	}
	return out
}

// paramVars are decl's parameters, in order: nil for an unnamed one.
func paramVars(pass *analysis.Pass, decl *ast.FuncDecl) []*types.Var {
	var out []*types.Var
	for v := range paramFields(pass, decl) {
		out = append(out, v)
	}
	return out
}

// paramFields yields decl's parameters in order, each with the field
// that declares it: its variable, nil for an unnamed parameter (a field
// without names is one parameter).
func paramFields(pass *analysis.Pass, decl *ast.FuncDecl) iter.Seq2[*types.Var, *ast.Field] {
	return func(yield func(*types.Var, *ast.Field) bool) {
		for _, f := range decl.Type.Params.List {
			for _, n := range f.Names {
				v, _ := pass.TypesInfo.Defs[n].(*types.Var)
				if !yield(v, f) {
					return
				}
			}
			if len(f.Names) == 0 && !yield(nil, f) {
				return
			}
		}
	}
}

// declOf is fn's declaration in the package, or nil.
func declOf(pass *analysis.Pass, fn *types.Func) *ast.FuncDecl {
	if fn == nil || fn.Pkg() != pass.Pkg {
		return nil
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && pass.TypesInfo.Defs[fd.Name] == fn.Origin() {
				return fd
			}
		}
	}
	return nil
}

// identOf is the variable e names, or nil.
func identOf(pass *analysis.Pass, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
	return v
}

// enclosingOf is the function declaration or literal around c.
func enclosingOf(c inspector.Cursor) ast.Node {
	for e := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return e.Node()
	}
	return nil
}
