package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
)

// clientAt says why m's write stays when the client it writes through is
// not, where the patcher is made, the client the write uses. The patcher
// is made at the anchor (the read) with the write's client text
// (migrateedit.go): a local variable of that text declared after the
// read is undefined there (the fix would not build); a variable the
// write's block declares, shadowing one of its name, is another variable
// there (the patcher would write through the outer one's client); one
// set after the read, where that runs before the write (runsBetween),
// held another client there (the patcher would write through it). s112's
// adversary (advhunt2/clients.go): at 68b1b549 each was moved,
// clientShadow's and clientReassigned's onto the read's client. "" when
// each local variable of the client is the same variable at the read
// and is not set between.
func clientAt(m *migration) string {
	if m == nil || m.anchor == nil || m.helper != nil || m.via != nil || m.client == nil || m.call == nil {
		return ""
	}
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if !ok {
		return ""
	}
	ccur, ok := m.cursor(m.client)
	if !ok {
		return ""
	}
	at, read, between := m.anchor.End(), m.where(m.anchor.Pos()), m.runsBetween()
	scope := m.pass.Pkg.Scope().Innermost(at)
	for c := range ccur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == m.pass.Pkg.Scope() || v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
			continue // a field, a package's variable, one of an outer function
		}
		text := types.ExprString(m.client)
		if scope != nil {
			switch _, there := scope.LookupParent(v.Name(), at); {
			case there == nil && v.Pos() >= at:
				return fmt.Sprintf("its client %s is declared at %s, after the read at %s where the patcher would be made with it", text, m.where(v.Pos()), read)
			case there != v && v.Pos() >= at:
				return fmt.Sprintf("its client %s is the %s declared at %s, after the read at %s where the patcher would be made: there %s is the one declared at %s, another client", text, v.Name(), m.where(v.Pos()), read, v.Name(), m.where(there.Pos()))
			}
		}
		for w := range writesOf(root, func(e ast.Expr) bool { return identOf(m.pass, e) == v }, nil) {
			if w.Node().Pos() >= at && between(w) {
				return fmt.Sprintf("its client %s is set at %s, after the read at %s where the patcher would be made: the patcher would hold the client %s held there", text, m.where(w.Node().Pos()), read, v.Name())
			}
		}
	}
	return ""
}
