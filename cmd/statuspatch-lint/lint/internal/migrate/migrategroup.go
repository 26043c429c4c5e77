package migrate

import (
	"fmt"
	"go/ast"
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
	r := newRecognition(pass, files, opts, ws, w)
	plan, why := r.recognise(true)
	if plan == nil {
		return nil, why
	}
	return plan(r.p, files, ws, opts)
}

// planGroup moves m, a write whose base is taken in its function, with
// the other status writes of its object there: they move together, the
// writes whose bases are taken at one place sharing one patcher.
func planGroup(m *migration, p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	pass := m.pass
	group := []*migration{m}
	for _, o := range ws {
		if o.Generated {
			continue
		}
		call, ok := files.Calls[o.Lparen]
		if !ok || call == m.call || len(call.Args) < 2 || call.Pos() < m.enclosingFunc().Pos() || call.End() > m.enclosingFunc().End() {
			continue
		}
		if !passesObj(m.pass.TypesInfo, m.obj, call.Args[1]) {
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
		if why := g.checks().unsentMutations(g.call); why != "" {
			if g == m {
				return nil, why
			}
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, why, m.obj.Name())
		}
	}
	spreadUnsent(group)
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
	if note := m.keptGets.note(m.pass.Fset, m.obj, p); fix != nil && note != "" {
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
