package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// The object written is a copy of the base, taken in the function
// (lws's ScalerManager.WriteStatus):
//
//	desired := s.DeepCopy()
//	desired.Status.Replicas = ...
//	c.Status().Patch(ctx, desired, client.MergeFromWithOptions(s, client.MergeFromWithOptimisticLock{}))
//
// The patch sends what changed on the copy since it was taken, as Flush
// of a patcher made on the copy right after it does, when the base is
// only read, as values, between the copy and the write (a change of it
// there would be in the handwritten patch's base, not in the patcher's). The copy's
// statement stays; the patcher is made after it.

// copiedObject is the write's object, m.obj, with base the variable of
// the patch's client.MergeFrom(base).
type copiedObject struct {
	m    *migration
	base *types.Var
}

// anchor sets the migration's anchor after obj := base.DeepCopy(), in a
// block enclosing the write, and reports whether it did.
func (c copiedObject) anchor() bool {
	m := c.m
	if c.base == nil || c.base == m.obj {
		return false
	}
	def, val := m.definition(m.obj)
	call, ok := ast.Unparen(val).(*ast.CallExpr)
	if def == nil || !ok || deepCopied(m.pass.TypesInfo, call) == nil || identOf(m.pass, deepCopied(m.pass.TypesInfo, call)) != c.base {
		return false // not obj := base.DeepCopy() (originalias.go's copy form)
	}
	if c.usedBetween(def.End(), m.call.Pos()) {
		return false
	}
	m.anchor, m.keep, m.copyOf = def, true, c.base
	return true
}

// usedBetween reports whether the base is used between from and to other
// than read as a value without references (s.Generation, s.Spec.Size).
func (c copiedObject) usedBetween(from, to token.Pos) bool {
	info := c.m.pass.TypesInfo
	for cur := range inspector.New([]*ast.File{c.m.file}).Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Pos() < from || id.Pos() >= to || info.Uses[id] != c.base {
			continue
		}
		top := cur
	climb:
		for {
			switch p := top.Parent().Node().(type) {
			case *ast.SelectorExpr:
				if p.X != top.Node() {
					break climb
				}
			case *ast.IndexExpr:
				if p.X != top.Node() {
					break climb
				}
			case *ast.ParenExpr:
			default:
				break climb
			}
			top = top.Parent()
		}
		e := top.Node().(ast.Expr)
		switch p := top.Parent().Node().(type) {
		case *ast.AssignStmt:
			if isLHS(p, e) {
				return true
			}
		case *ast.IncDecStmt:
			return true
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return true
			}
		}
		if t := info.TypeOf(e); e == ast.Expr(id) || t == nil {
			return true
		} else if _, basic := t.Underlying().(*types.Basic); !basic {
			return true
		}
	}
	return false
}
