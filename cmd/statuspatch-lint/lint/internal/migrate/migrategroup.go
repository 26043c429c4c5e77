package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// Fix returns the fix moving w onto the generated patcher of its kind,
// or why a write of a recognised shape cannot be moved ("" when the shape
// is not one -fix migrates: the other fixes and the message apply). ws
// are the package's status writes, w among them. With a fix, the string
// is what the fix leaves for a hand: a re-read of the object after a
// moved write that stays a cached Get, and why (migratekept.go).
func Fix(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write) (*analysis.SuggestedFix, string) {
	m, p, why := prepareMigration(pass, files, opts, w)
	if m == nil {
		// A helper over objects of any kind (migrategeneric.go).
		if h, hwhy := kindHelperOf(pass, files, opts, ws, w); h != nil {
			return h.fix()
		} else if hwhy != "" {
			return nil, hwhy
		}
	}
	if m == nil {
		return nil, why
	}
	if m.helper != nil {
		return m.helper.helperFix(p, files, ws, opts)
	}
	if m.apply != nil {
		if why := m.applyBeside(files, ws); why != "" {
			return nil, why
		}
		if why := m.apply.checkApplyUses(); why != "" {
			return nil, why
		}
		return m.apply.applyEdits(p)
	}
	if m.apply == nil {
		// A write in a conflict loop's function: the loop becomes the
		// patcher's Fetch and Retry (migrateloop.go).
		if l, why := loopOf(m); l != nil {
			return l.fix(p, files, ws)
		} else if why != "" {
			return nil, why
		}
	}
	group := []*migration{m}
	for _, o := range ws {
		if o == w || o.Generated {
			continue
		}
		call, ok := files.Calls[o.Lparen]
		if !ok || len(call.Args) < 2 || call.Pos() < m.enclosingFunc().Pos() || call.End() > m.enclosingFunc().End() {
			continue
		}
		if id, ok := ast.Unparen(call.Args[1]).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != m.obj {
			continue
		}
		line := pass.Fset.Position(call.Pos()).Line
		om, _, owhy := prepareMigration(pass, files, opts, o)
		switch {
		case om == nil && owhy == "":
			return nil, fmt.Sprintf("the status write of %s at line %d is not of a shape -fix moves, and the writes of %s in this function move together", m.obj.Name(), line, m.obj.Name())
		case om == nil:
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), line, owhy, m.obj.Name())
		case om.anchor == nil:
			return nil, fmt.Sprintf("the status write of %s at line %d has no read of %s before it in this function, and the writes of %s in this function move together", m.obj.Name(), line, m.obj.Name(), m.obj.Name())
		}
		group = append(group, om)
	}
	if why := groupOwners(m, group); why != "" {
		return nil, why
	}
	moved := map[*ast.CallExpr]bool{}
	for _, g := range group {
		moved[g.call] = true
	}
	for _, g := range group {
		g.moved = moved
		if g.baseVar != nil {
			n := 0
			for _, h := range group {
				if h.baseVar == g.baseVar {
					n++
				}
			}
			g.keep = m.uses(g.baseVar) != n
		}
		if g.copyVar != nil {
			// The copy stays only for uses other than the patches the
			// group drops (p1 := client.MergeFrom(orig), p2 := ...).
			dropped := map[ast.Stmt]bool{}
			for _, h := range group {
				if h.copyVar == g.copyVar {
					for _, d := range h.drop {
						dropped[d] = true
					}
				}
			}
			g.keep = m.uses(g.copyVar) != len(dropped)
		}
		if g.lateVar != nil {
			n := 0
			for _, h := range group {
				if h.lateVar == g.lateVar {
					n++
				}
			}
			g.lateKeep = m.uses(g.lateVar) != n
		}
	}
	planFetches(group)
	planRereads(group)
	if why := overlapping(m, group); why != "" {
		return nil, why
	}
	for _, g := range group {
		g.compose = true // a helper writing the object takes the patcher (migratehelper.go)
		if why := g.checks().checkMutations(); why != "" {
			if g == m {
				return nil, why
			}
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, why, m.obj.Name())
		}
	}
	for _, g := range group {
		if why := planRetry(g); why != "" {
			if g == m {
				return nil, why
			}
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, why, m.obj.Name())
		}
	}
	fix, why := m.edits(p, m.patcherName(group))
	for _, g := range group {
		switch {
		case fix == nil || g.callback == nil:
		case g != m:
			return nil, fmt.Sprintf("the status write of %s at line %d hands it to the function %s, and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, g.callback.name, m.obj.Name())
		default:
			// Its callers' functions decide (migratecallback.go).
			if why := exportCallback(m, opts, files); why != "" {
				return nil, why
			}
		}
	}
	if note := m.keptNote(p); fix != nil && note != "" {
		fix.Message += "; " + note
		return fix, note
	}
	return fix, why
}

// freePatcherName is obj+"Patcher", or with 2, 3... the first name not
// taken in the file's function (a patcher made alone, not in a group).
func (m *migration) freePatcherName() string {
	name := m.obj.Name() + "Patcher"
	for i := 2; m.text().nameTaken(name); i++ {
		name = m.obj.Name() + "Patcher" + strconv.Itoa(i)
	}
	return name
}

// patcherName names the patcher of m's anchor: the group's anchors, in
// source order, take the first free names obj+"Patcher", then with 2, 3...
// so each write of the group computes the same names.
func (m *migration) patcherName(group []*migration) string {
	// A re-read fetched into a spanning patcher's variable takes its name.
	reuse := map[ast.Stmt]ast.Stmt{}
	for _, g := range group {
		if g.fetch != nil && g.fetch.reuse != nil {
			reuse[g.anchor] = g.fetch.reuse
		}
	}
	target := m.anchor
	for i := 0; reuse[target] != nil && i < len(group); i++ {
		target = reuse[target]
	}
	var anchors []ast.Stmt
	for _, g := range group {
		if !slices.Contains(anchors, g.anchor) && reuse[g.anchor] == nil {
			anchors = append(anchors, g.anchor)
		}
	}
	slices.SortFunc(anchors, func(a, b ast.Stmt) int { return int(a.Pos()) - int(b.Pos()) })
	taken := map[string]bool{}
	name := ""
	for _, a := range anchors {
		name = m.obj.Name() + "Patcher"
		for i := 2; m.text().nameTaken(name) || taken[name]; i++ {
			name = m.obj.Name() + "Patcher" + strconv.Itoa(i)
		}
		taken[name] = true
		if a == target {
			return name
		}
	}
	return name
}

// applyBeside says why an apply cannot move beside other status writes of
// its object in the function: they move onto a patcher in merge mode, and
// one in apply mode made at the same read would be alive at once with
// it, its lock older than their writes. When each of them comes before
// the apply's statement, outside any loop around it, the apply's patcher
// is made there instead (applyMove.late), after the last of them: its
// lock is the one their last write left.
func (m *migration) applyBeside(files Files, ws []*Write) string {
	if m.obj == nil {
		return ""
	}
	fn := m.enclosingFunc()
	stmt := m.enclosingStmt()
	var beside []*ast.CallExpr
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call == m.call || o.Generated || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 {
			continue
		}
		if id, ok := ast.Unparen(call.Args[1]).(*ast.Ident); ok && m.pass.TypesInfo.Uses[id] == m.obj && o.Verb != "Apply" {
			beside = append(beside, call)
		}
	}
	if len(beside) == 0 {
		return ""
	}
	late := stmt != nil && !m.inLoop(stmt)
	for _, call := range beside {
		late = late && call.End() <= stmt.Pos()
	}
	if late {
		// The patcher's lock is the one the last merge write left: each
		// must have run, in this function's body (not a function literal
		// called or deferred later), and stopped it on an error (a failed
		// write leaves the old resourceVersion, a lock the apply would
		// 409 on where the handwritten apply, no lock, was stored).
		for _, call := range beside {
			if why := m.stopsOnError(call, fn); why != "" {
				return m.shapeWhy(fmt.Sprintf("%s's status is also written at %s (Status().%s), %s: a patcher in apply mode made after it would take the lock of a write that may not have happened; return that write's error, or make them applies",
					m.obj.Name(), m.where(call.Pos()), statusVerb(call), why))
			}
		}
		m.apply.late = true
		return ""
	}
	call := beside[0]
	return m.shapeWhy(fmt.Sprintf("%s's status is also written at %s (Status().%s): a patcher in apply mode made at the read for this write would be alive at once with that write's, its lock older than that write (apply mode and merge writes cannot share a patcher); make this write an ApplyStatus of a patcher made in apply mode after the last of them, or make them applies",
		m.obj.Name(), m.where(call.Pos()), statusVerb(call)))
}

// inLoop reports whether s is in a for or range statement of the
// write's function.
func (m *migration) inLoop(s ast.Stmt) bool {
	for _, n := range m.path {
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
func (m *migration) stopsOnError(call *ast.CallExpr, fn ast.Node) string {
	cur, ok := m.cursor(call)
	if !ok {
		return "which -fix cannot place"
	}
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if c.Node() != fn {
			return fmt.Sprintf("in the function literal at %s, which may run after the apply or not at all", m.where(c.Node().Pos()))
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
			if m.returnsOn(is, s.Lhs[0]) {
				return ""
			}
			break
		}
		var list []ast.Stmt
		switch b := parent.Parent().Node().(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		}
		if i := slices.Index(list, ast.Stmt(s)); i >= 0 && i+1 < len(list) {
			if is, ok := list[i+1].(*ast.IfStmt); ok && is.Init == nil && m.returnsOn(is, s.Lhs[0]) {
				return ""
			}
		}
	}
	return "whose error does not return from the function"
}

// returnsOn reports whether is is if v != nil { ...; return ... }.
func (m *migration) returnsOn(is *ast.IfStmt, v ast.Expr) bool {
	cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ || !isNil(cond.Y) || len(is.Body.List) == 0 {
		return false
	}
	a, ok1 := ast.Unparen(cond.X).(*ast.Ident)
	b, ok2 := ast.Unparen(v).(*ast.Ident)
	if !ok1 || !ok2 {
		return false
	}
	if o := m.pass.TypesInfo.ObjectOf(a); o == nil || o != m.pass.TypesInfo.ObjectOf(b) {
		return false
	}
	_, ret := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
	return ret
}
