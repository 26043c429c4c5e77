package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

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
	var gets, returned []ast.Stmt
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for _, s := range list {
			if m.reads().isGetStmt(s) {
				gets = append(gets, s)
			}
			// return r.Get(ctx, key, obj): a re-read no Fetch replaces.
			if r, ok := s.(*ast.ReturnStmt); ok && len(r.Results) == 1 && m.reads().isGetStmt(&ast.ExprStmt{X: r.Results[0]}) {
				gets, returned = append(gets, s), append(returned, s)
			}
		}
		return true
	})
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
				note = " (a return's Get is no statement a Fetch replaces: it stays a Get)"
				after = returned
			}
		} else {
			what = deferWrites(m, d.Call, group, files, ws, names)
		}
		if what == "" {
			return true
		}
		for _, s := range after {
			if s.Pos() > d.End() {
				why = fmt.Sprintf("the deferred call at %s%s %s of %s with Get at %s%s: it would flush that patcher, its base older than the re-read, and conflict where the handwritten write, through %s as re-read, was stored",
					m.where(at.Pos()), what, how, m.obj.Name(), m.where(s.Pos()), note, m.obj.Name())
				return false
			}
		}
		return true
	})
	return why
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
