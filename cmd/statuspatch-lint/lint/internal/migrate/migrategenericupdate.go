package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
)

// An Update of an object of a generic reconciler type's parameter (issue
// 80, U2's project D): the method reads it, obj := r.New(); r.C.Get(ctx,
// key, obj), and writes it whole through the status subresource, often
// in a literal deferred after the read, which runs as the method returns:
//
//	defer func() {
//		r.Observe(obj, obj.GetGeneration())
//		if uerr := r.C.Status().Update(ctx, obj); uerr != nil { ... }
//	}()
//	return r.Hook(ctx, obj)
//
// It has no base: the patcher, patchers.ForType(r.C, obj), is made after
// the read (its error returned as the method returns errors), and the
// write becomes its Flush where it is, the code around it (a named error
// result the literal sets, a NotFound it ignores) as it was. The type's
// instantiations and its hooks are judged as a base's
// (migrategenerictype.go, migrategenerichook.go); everything after the
// read, the returns' hooks among it, runs before a deferred write.

// recogniseUpdate recognises the Update of o.obj in a method of its
// generic type, read with Get before it.
func (o *ownBase) recogniseUpdate(r *recognition, k *kindHelper, call *ast.CallExpr) (*ownBase, string, bool) {
	if o.fd == nil || o.obj == nil || !k.anyKind(o.obj.Type()) || o.fd.Recv == nil || o.recvTypeParam() == nil || k.newT {
		return nil, "", false
	}
	o.ctor, o.read, o.defers = "ForType", true, inDefer(o.path)
	end := o.writeEnd(call) // a deferred write runs after the reads below it too
	for _, s := range o.fd.Body.List {
		if s.End() > end {
			break
		}
		if get := o.getOf(s); get != nil {
			o.def = s
		}
	}
	if o.def == nil {
		return nil, fmt.Sprintf("%s is not read with Get in %s before its write at %s: the patcher has no read to be made after", o.obj.Name(), o.fd.Name.Name, o.where(call.Pos())), !r.opts.Audit
	}
	if why := o.deferredAfterRead(); why != "" {
		return nil, why, !r.opts.Audit
	}
	if why := o.readAgain(call); why != "" {
		return nil, why, !r.opts.Audit
	}
	if why := o.check(r.opts, call); why != "" {
		return nil, why, !r.opts.Audit
	}
	return o, "", true
}

// getOf returns the Get of the object s makes, alone, assigned or as an
// if's init, or nil.
func (o *ownBase) getOf(s ast.Stmt) *ast.CallExpr {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		s = is.Init
	}
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil
		}
		e = s.Rhs[0]
	default:
		return nil
	}
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) < 3 || !o.isObjOf(c.Args[2]) {
		return nil
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); !ok || sel.Sel.Name != "Get" {
		return nil
	}
	return c
}

// readAgain says why the write stays when the object is read with Get
// again after the read the patcher is made after: the write sent the
// object as re-read, the patcher's Flush would send it against the first
// read and conflict.
func (o *ownBase) readAgain(call *ast.CallExpr) string {
	body, ok := o.cursor(o.fd.Body)
	if !ok {
		return "its method's body is not seen"
	}
	for c := range body.Preorder((*ast.CallExpr)(nil)) {
		g := c.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(g.Fun).(*ast.SelectorExpr)
		if g.Pos() <= o.def.End() || !ok || sel.Sel.Name != "Get" || len(g.Args) < 3 || !o.isObjOf(g.Args[2]) {
			continue
		}
		return fmt.Sprintf("%s is read again with Get at %s, after the read at %s the patcher would be made after: the write sent it as re-read, and a Flush of that patcher would conflict", o.obj.Name(), o.where(g.Pos()), o.where(o.def.Pos()))
	}
	return ""
}

// writeEnd is where the code that runs between the read and the write
// ends: the write, or the method's end for a deferred write.
func (o *ownBase) writeEnd(call *ast.CallExpr) token.Pos {
	if o.defers {
		return o.fd.Body.End()
	}
	return call.Pos()
}

// deferredAfterRead says why a deferred write stays when its defer
// statement is registered before the read: the patcher, made after the
// read, is not declared where the literal is.
func (o *ownBase) deferredAfterRead() string {
	for i := len(o.path) - 1; i >= 0; i-- {
		if d, ok := o.path[i].(*ast.DeferStmt); ok && d.Pos() < o.def.End() {
			return fmt.Sprintf("its deferred write is registered at %s, before the read at %s the patcher would be made after", o.where(d.Pos()), o.where(o.def.Pos()))
		}
	}
	return ""
}
