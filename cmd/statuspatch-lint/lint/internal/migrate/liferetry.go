package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A decision beside the code's patcher (issue 80): the write becomes a
// Flush of the patcher the code made (lifepatcher.go), and its decision,
// the status computed from what was read before, moves into that
// patcher's Retry when the classifier -fix's own patcher goes by says it
// may run again (planRetry: migrateretry*.go, migrateonce*.go), the text
// built as for -fix's own (retryEdits). Under a manager a refused Flush
// returns the 409 and the next reconcile decides again; Retry re-reads
// and decides on the fresh object. Retry leaves the object the patcher
// holds as stored (its refresh is in place), so code after the write
// that reads it, or flushes the patcher again, sees what was written.
// Where the decision stays, the Flush's note names what keeps it
// (codeLifeNote): the classifier's reason, or the patcher used where the
// model does not follow it (sharedWhy).

// intoRetry plans the decision of c's write into cp's Retry: the edits,
// the text replacing the write's call ("" when an edit holds it), and
// sync's import; kept is why the decision stays before the Flush when
// the classifier alone does not say it (the note adds its own).
func (c *codeLife) intoRetry(cp madePatcher) (edits []analysis.TextEdit, call string, imp *analysis.TextEdit, kept string) {
	m := c.migration
	if inDefer(m.path) || deferredCall(m.path, m.call) {
		return nil, "", nil, "" // a deferred write's decision stays (its note says nothing)
	}
	// The marks of the object's life the decision starts after (lifeMark):
	// the re-Gets made p's Fetches, the check of a Fetch...Into's error.
	m.rereads = c.fetches
	if m.getCheck == nil {
		m.getCheck = madeCheck(m, cp)
	}
	_, once := planRetryOnce(m)
	if m.retry == nil {
		return nil, "", nil, once
	}
	if why := c.sharedWhy(cp); why != "" {
		m.retry = nil
		return nil, "", nil, why
	}
	edits, call, imp, ok, why := retryEdits(retries{migration: m}, cp.via.Name())
	if !ok {
		m.retry = nil
		if why == "" {
			why = fmt.Sprintf("Retry's function, on %s as the file names its type, cannot be written here", c.obj.Name())
		}
		return nil, "", nil, why
	}
	switch unused, define := c.unusedAfter(cp); {
	case unused && define:
		edits = append(edits, c.text().deleteStmt(cp.stmt))
	case unused:
		m.retry = nil
		return nil, "", nil, fmt.Sprintf("%s is used only by the decision and this write, and is assigned at %s with no declaration there: Retry's function would leave the variable unused", c.obj.Name(), m.where(cp.stmt.Pos()))
	}
	return edits, call, imp, ""
}

// unusedAfter reports whether cp is obj := p.Object() (define) or obj =
// p.Object() and the object is used nowhere but in the decision and the
// write, which become Retry's (its function's parameter takes the name):
// the variable would be unused; a declaration there goes.
func (c *codeLife) unusedAfter(cp madePatcher) (unused, define bool) {
	as, ok := cp.stmt.(*ast.AssignStmt)
	if !cp.obj || !ok || len(as.Lhs) != 1 || c.pass.TypesInfo.ObjectOf(identNode(as.Lhs[0])) != c.obj {
		return false, false
	}
	define = as.Tok == token.DEFINE && c.pass.TypesInfo.Defs[identNode(as.Lhs[0])] == c.obj
	p, fn := c.retry, c.enclosingFunc()
	from := p.stmts[0].Pos() // a guard stays around the Retry, reading the object
	for cur := range c.usesOf(fn, c.obj, fn.Pos(), fn.End()) {
		if at := cur.Node().Pos(); (at < from || at >= c.call.End()) && (at < cp.stmt.Pos() || at >= cp.stmt.End()) {
			return false, define
		}
	}
	return true, define
}

// madeCheck is the if checking the error of cp's statement right after
// it (p, err := Fetch<Kind>StatusPatcherInto(...); if err != nil {...}):
// the object is what cp holds after it, as after a Get's check.
func madeCheck(m *migration, cp madePatcher) ast.Stmt {
	as, ok := cp.stmt.(*ast.AssignStmt)
	if !ok || len(as.Lhs) < 2 {
		return nil
	}
	for _, list := range m.enclosingLists() {
		if i := slices.Index(list, cp.stmt); i >= 0 && i+1 < len(list) && m.checksErr(list[i+1], as) {
			return list[i+1]
		}
	}
	return nil
}

// sharedWhy says why the code's patcher cp cannot take the decision
// into its Retry though the classifier moves it: a goroutine or a
// function literal that is not deferred uses it (when it runs, and what
// it does to the patcher's object, is not followed), or, between its
// making and the write, it is handed on or used by a method other than
// Flush, Retry or Object (an ApplyStatus left pending, a status changed
// through it, would make Retry refuse as pending). A deferred use runs
// when the function returns, after the write, on the object as Retry
// left it. "" when none.
func (c *codeLife) sharedWhy(cp madePatcher) string {
	m := c.migration
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if !ok {
		return "its function is not in the package's syntax"
	}
	via := cp.via.Name()
	for cur := range m.usesOf(fn, cp.via, fn.Pos(), fn.End()) {
		id := cur.Node()
		if cp.stmt.Pos() <= id.Pos() && id.End() <= cp.stmt.End() {
			continue
		}
		var lit ast.Node
		deferred := false
		for e := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
			if !root.Contains(e) || e.Node() == fn {
				break
			}
			switch x := e.Node().(type) {
			case *ast.GoStmt:
				return fmt.Sprintf("%s is used by the go statement at %s, which may run while Retry reads %s again and decides", via, m.where(x.Pos()), c.obj.Name())
			case *ast.DeferStmt:
				deferred = true
			case *ast.FuncLit:
				if lit == nil {
					lit = x
				}
			}
		}
		switch {
		case deferred:
		case lit != nil:
			return fmt.Sprintf("%s is used in the function literal at %s, which may run before this write: what it does to %s there is not followed", via, m.where(lit.Pos()), via)
		case id.Pos() < cp.stmt.End() || id.Pos() >= m.call.Pos():
		case viaMethod(cur, "Object") && objectOfLife(c, cur):
		case !viaMethod(cur, "Flush", "Retry") && !blankUse(cur):
			return fmt.Sprintf("%s is handed on or used at %s, between its making at %s and this write: what is done to it there is not followed (Retry refuses a status changed before it, or an ApplyStatus left pending)", via, m.where(id.Pos()), m.where(cp.stmt.Pos()))
		}
	}
	return ""
}

// objectOfLife reports whether the p.Object() call at cur is assigned to
// the life's object (obj := p.Object(), obj = p.Object()), which the
// model follows; any other use of its result (p.Object().Status.Size =
// 5, st := p.Object()) may change the status unseen, and Retry would
// refuse it as pending.
func objectOfLife(c *codeLife, cur inspector.Cursor) bool {
	call := cur.Parent().Parent()
	as, ok := call.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call.Node() {
		return false
	}
	id := identNode(as.Lhs[0])
	return id != nil && c.pass.TypesInfo.ObjectOf(id) == c.obj
}

// viaMethod reports whether the use of the patcher's variable at cur is
// the receiver of a call of one of names: p.Flush(...), p.Object().
func viaMethod(cur inspector.Cursor, names ...string) bool {
	sel, ok := cur.Parent().Node().(*ast.SelectorExpr)
	if !ok || !slices.Contains(names, sel.Sel.Name) {
		return false
	}
	_, ok = cur.Parent().Parent().Node().(*ast.CallExpr)
	return ok
}

// blankUse reports whether the use at cur is _ = p, which does nothing.
func blankUse(cur inspector.Cursor) bool {
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	return ok && len(as.Lhs) == 1 && isBlank(as.Lhs[0])
}
