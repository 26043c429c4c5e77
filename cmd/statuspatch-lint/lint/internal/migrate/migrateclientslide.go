package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A write's client declared after the object's read, before the write
// (kueue's reconcileGroup: remWl := group.remotes[name], then remClient
// := group.remoteClients[name], then remClient.getClient().Status().
// Update(ctx, remWl)). The patcher is made with the write's client, so at
// the read that client is undefined, and clientAt kept the write. When
// the statements from the read to those declaring it only declare locals
// from expressions that call nothing, none naming the object, the anchor
// slides past them: the patcher is made once its client exists, over the
// object as read.

// slideToClient moves m's anchor past the statements of its block that
// declare the local variables the write's client names after it, when
// they come before the write and no use of the object lies between the
// anchor and their end; it leaves the anchor where it is otherwise
// (clientAt then says why the write stays). Only a read the edit keeps
// (a Get, a List's item, a map's value) slides: a base statement
// (base := obj.DeepCopy()) is where the patcher's making goes.
func slideToClient(m *migration) {
	if m.anchor == nil || !m.keep || m.baseVar != nil || m.client == nil || m.helper != nil || m.via != nil || m.call == nil {
		return // a base statement the patcher's making replaces, or no read
	}
	var list []ast.Stmt
	m.stmtLists(func(_ ast.Node, l []ast.Stmt) bool {
		if slices.Contains(l, m.anchor) {
			list = l
		}
		return list == nil
	})
	at := slices.Index(list, m.anchor)
	if at < 0 {
		return
	}
	fn := m.enclosingFunc()
	last := -1
	for id := range ast.Preorder(m.client) {
		id, ok := id.(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pos() < m.anchor.End() || v.Pos() >= m.call.Pos() || v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
			continue // declared before the read, or not a local of the function
		}
		j := slices.IndexFunc(list, func(s ast.Stmt) bool { return s.Pos() <= v.Pos() && v.Pos() < s.End() })
		if j <= at || list[j].End() > m.call.Pos() {
			return // declared in another block, or in the write's statement
		}
		last = max(last, j)
	}
	if last < 0 {
		return
	}
	for range m.usesOf(fn, m.obj, m.anchor.End(), list[last].End()) {
		return // the object is used before its client exists
	}
	for _, s := range list[at+1 : last+1] {
		if !plainDefine(s) {
			return
		}
	}
	m.anchor = list[last]
}

// plainDefine reports whether s only declares locals from expressions
// that call nothing (x := m[k], c := r.Direct): no assignment to what
// exists, no call, no function literal. Anything else may change the
// object through a name the uses do not show (a closure made before the
// read, a pointer into its status, a map holding it: s117's adversary),
// which a patcher made after s would take as its base and never send.
func plainDefine(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return false
	}
	for _, l := range as.Lhs {
		if _, ok := l.(*ast.Ident); !ok {
			return false
		}
	}
	for _, r := range as.Rhs {
		for n := range ast.Preorder(r) {
			switch n.(type) {
			case *ast.CallExpr, *ast.FuncLit:
				return false
			}
		}
	}
	return true
}
