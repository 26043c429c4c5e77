package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A defer statement's call takes its arguments, and a method value its
// receiver, when the defer statement runs (issue 80): defer
// r.Status().Update(ctx, &w) becomes defer wPatcher.Flush(ctx), and
// defer r.finish(ctx, w), a helper writing w's status, defer
// r.finish(ctx, wPatcher). A re-read of the object with Get after it (the
// tutorial's re-fetch before updating the status) brings another
// writer's status into the object after that patcher's base; the Update
// ran as the function returned, through the object as re-read, and was
// stored, where the deferred Flush of the patcher taken before the re-read
// conflicts. Made a Fetch, the re-read would assign a patcher the
// deferred call no longer reads. A deferred function literal reads its
// variables when it runs (migraterereads.go): only the call itself holds.

// deferHeld says why the group's writes stay: a defer statement's call,
// a write of the group or a call handing the object to a function of the
// package that writes its status, is registered before a read of the
// object with Get in the function; "" when there is none.
func deferHeld(m *migration, group []*migration, files Files, ws []*Write) string {
	fn := m.enclosingFunc()
	names := newAliases(m.pass.TypesInfo, fn, m.obj)
	gets, stays := rereads(m)
	why := ""
	ast.Inspect(fn, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok || why != "" {
			return why == ""
		}
		at, what, how, note := d.Call, "", "takes the patcher made before it when its defer statement runs, before the re-read", ""
		after := gets
		if lit, ok := d.Call.Fun.(*ast.FuncLit); ok {
			at, what = litHelperWrite(m, lit, group, files, ws, names)
			how = "flushes, in a function literal, the patcher made before the re-read"
			note = " (a re-read becomes a Fetch for the group's own writes in a deferred literal, not a helper's: it stays a Get)"
			if at == nil {
				at, what = litOwnWrite(lit, group)
				note = "stray" // strayNote, by the read
				after = stays
			}
		} else {
			what = deferWrites(m, d.Call, group, files, ws, names)
		}
		if what == "" {
			return true
		}
		for _, s := range after {
			if s.Pos() > d.End() || closureCalledAfter(m, fn, s, d.End()) {
				if note == "stray" {
					note = strayNote(m, s)
				}
				why = fmt.Sprintf("the deferred call at %s%s %s of %s %s%s: it would flush that patcher, its base older than the re-read, and conflict where the handwritten write, through %s as re-read, was stored",
					m.where(at.Pos()), what, how, m.obj.Name(), rereadBy(m, s), note, m.obj.Name())
				return false
			}
		}
		return true
	})
	if why == "" {
		why = strayHeld(m, group, stays)
	}
	return why
}

// strayHeld says why the group stays when a Get that no Fetch replaces
// (in an expression: if apierrors.IsNotFound(r.Get(ctx, key, w)))
// runs between a write's patcher and the write, on a path that reaches
// the write (not an early return's): the Flush would send the base taken
// before the re-read, where the handwritten write, through the object as
// re-read, was stored.
func strayHeld(m *migration, group []*migration, stays []ast.Node) string {
	for _, h := range group {
		if h.anchor == nil {
			continue
		}
		// A deferred literal's write runs as the function returns: a
		// stray Get before its defer statement runs before it (one after
		// it is deferHeld's).
		var end ast.Node = h.call
		if inDefer(h.path) {
			if end = deferStmtOf(h.path); end == nil {
				continue
			}
		}
		l := newLife(&h.site, h.obj)
		for _, s := range stays {
			call, ok := s.(*ast.CallExpr)
			if !ok || !m.reads().isGetStmt(&ast.ExprStmt{X: call}) {
				continue // a helper's read: the helper chain's rules
			}
			if l != nil && !l.reaches(s.Pos(), end.Pos()) {
				continue // on a path that returns: it never runs before the write
			}
			if h.anchor.End() <= s.Pos() && s.End() <= end.Pos() {
				return fmt.Sprintf("%s is read again at %s, between the read its patcher is made after (%s) and the write at %s, by a Get in an expression, which no Fetch replaces: the Flush would send the base of the first read and conflict where the handwritten write, through %s as re-read, was stored",
					m.obj.Name(), m.where(s.Pos()), m.where(h.anchor.Pos()), m.where(h.call.Pos()), m.obj.Name())
			}
		}
	}
	return ""
}

// deferWrites says how the deferred call writes the object: a write of
// the group (" (its status write)"), or a call handing it to a function
// of the package that writes its status (" (finish writes it at line
// 28)"); "" when it does neither.
func deferWrites(m *migration, call *ast.CallExpr, group []*migration, files Files, ws []*Write, names *aliases) string {
	for _, h := range group {
		if h.call == call {
			return " (its status write)"
		}
	}
	handed := false
	for _, arg := range call.Args {
		if _, ok := names.handed(arg, m.obj); ok {
			handed = true
		}
	}
	if !handed {
		return ""
	}
	fd := m.funcDecl(kube.CalledFunc(m.pass, call))
	if fd == nil || fd.Body == nil {
		return ""
	}
	for _, o := range ws {
		if oc, ok := files.Calls[o.Lparen]; ok && !o.Generated && within(oc, fd) {
			return fmt.Sprintf(" (%s writes its status at %s)", types.ExprString(call.Fun), m.where(oc.Pos()))
		}
	}
	return ""
}

// litHelperWrite finds, in a deferred function literal holding no write
// of the group (whose re-reads planRereads makes Fetches assigning the
// patcher the literal reads), a call handing the object to a function
// writing its status: the literal reads the patcher's variable when it
// runs, but a re-read that stays a Get assigns it no other.
func litHelperWrite(m *migration, lit *ast.FuncLit, group []*migration, files Files, ws []*Write, names *aliases) (*ast.CallExpr, string) {
	for _, h := range group {
		if within(h.call, lit) {
			return nil, ""
		}
	}
	var at *ast.CallExpr
	what := ""
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && what == "" {
			if what = deferWrites(m, call, nil, files, ws, names); what != "" {
				at = call
			}
		}
		return what == ""
	})
	return at, what
}

// litOwnWrite is the first write of the group in the deferred literal,
// whose re-reads planRereads makes Fetches, but for a return's Get.
func litOwnWrite(lit *ast.FuncLit, group []*migration) (*ast.CallExpr, string) {
	for _, h := range group {
		if within(h.call, lit) {
			return h.call, " (its status write)"
		}
	}
	return nil, ""
}

// rereads are the reads of the object in the function: its Get
// statements, which planRereads may make Fetches, and the reads that stay
// whatever it does (stays, among them): a Get in a return or another
// expression (return ctrl.Result{}, r.Get(ctx, key, w)), and a call of a
// function of the package that reads into the object (return
// r.refetch(ctx, req, w)).
func rereads(m *migration) (gets, stays []ast.Node) {
	inStmt := map[*ast.CallExpr]bool{}
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for _, s := range list {
			if m.reads().isGetStmt(s) {
				gets = append(gets, s)
				inStmt[stmtCall(s)] = true
			}
		}
		return true
	})
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || inStmt[call] {
			return true
		}
		if m.reads().isGetStmt(&ast.ExprStmt{X: call}) || readsInto(m, call) {
			gets, stays = append(gets, call), append(stays, call)
		}
		return true
	})
	return gets, stays
}

// stmtCall is the call of a statement that is one (alone, assigned, or
// an if's init), or nil.
func stmtCall(s ast.Stmt) *ast.CallExpr {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		s = is.Init
	}
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}

// readsInto reports whether call hands the object to a function of the
// package that reads into it with Get.
func readsInto(m *migration, call *ast.CallExpr) bool {
	return readerGet(m, call) != nil
}

// readerGet is the Get of a function of the package that call hands the
// object to and that reads into it; nil when it is no such call.
func readerGet(m *migration, call *ast.CallExpr) *ast.CallExpr {
	decl := m.funcDecl(kube.CalledFunc(m.pass, call))
	if decl == nil || decl.Body == nil {
		return nil
	}
	for i, arg := range call.Args {
		if passesObj(m.pass.TypesInfo, m.obj, arg) {
			if get, _ := readInto(m.reads(), decl, i); get != nil {
				return get
			}
		}
	}
	return nil
}

// strayNote says why a re-read after a deferred literal stays what it
// is: a helper's read, or a Get that is no statement of its own.
func strayNote(m *migration, read ast.Node) string {
	if call, ok := read.(*ast.CallExpr); ok && !m.reads().isGetStmt(&ast.ExprStmt{X: call}) {
		return " (a helper's read is no statement a Fetch replaces: it stays)"
	}
	return " (a Get in a return or another expression is no statement a Fetch replaces: it stays)"
}

// rereadBy says how a re-read of the object (rereads) reads it: "with
// Get at line 30", or, handed to a function of the package that reads
// into it, "by r.load at line 30, which reads it with Get at line 41".
func rereadBy(m *migration, read ast.Node) string {
	if call, ok := read.(*ast.CallExpr); ok && !m.reads().isGetStmt(&ast.ExprStmt{X: call}) {
		if get := readerGet(m, call); get != nil {
			return fmt.Sprintf("by %s at %s, which reads it with Get at %s", types.ExprString(call.Fun), m.where(read.Pos()), m.where(get.Pos()))
		}
	}
	return "with Get at " + m.where(read.Pos())
}

// closureCalledAfter reports whether read, in a function literal assigned
// to a variable (refresh := func() error { return r.Get(ctx, key, w) }),
// may run after end: the variable is used after it (return refresh()),
// though the literal is written before.
func closureCalledAfter(m *migration, fn ast.Node, read ast.Node, end token.Pos) bool {
	info := m.pass.TypesInfo
	var vars []types.Object
	ast.Inspect(fn, func(n ast.Node) bool {
		var lhs, rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = n.Lhs, n.Rhs
		case *ast.ValueSpec:
			for _, id := range n.Names {
				lhs = append(lhs, id)
			}
			rhs = n.Values
		default:
			return true
		}
		for i, r := range rhs {
			lit, ok := ast.Unparen(r).(*ast.FuncLit)
			if !ok || i >= len(lhs) || !within(read, lit) {
				continue
			}
			if id, ok := lhs[i].(*ast.Ident); ok && info.ObjectOf(id) != nil {
				vars = append(vars, info.ObjectOf(id))
			}
		}
		return true
	})
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() > end && slices.Contains(vars, info.Uses[id]) {
			found = true
		}
		return !found
	})
	return found
}

// deferStmtOf is the defer statement of the deferred literal path is in,
// or nil.
func deferStmtOf(path []ast.Node) ast.Node {
	for i, n := range path {
		if _, ok := n.(*ast.FuncLit); ok && deferredAt(path, i) {
			return path[i+2]
		}
	}
	return nil
}
