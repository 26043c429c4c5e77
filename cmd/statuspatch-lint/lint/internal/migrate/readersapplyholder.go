package migrate

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// An apply configuration given a reference into the object by a setter
// that shares it (lws's GetPVCApplyConfiguration:
// pvcSpecApplyConfig.WithResources(&vrrApplyConfig), whose Requests is
// &pvc.Spec.Resources.Requests) holds it: the configuration is followed
// as the reference, through the local its receiver's chain starts at
// (or a configuration a constructor of client-go's applyconfigurations
// makes, fresh) and through the setter's result, which is its receiver.
//
// A setter called on such a holder writes the configuration's own
// fields (readersapply.go's three forms): "value" replaces the field;
// "values" and "entries" append to, or insert in, the slice or map the
// field already has, which is the object's only if the field's type is
// one of the object's: they are followed when what they store is itself
// an apply configuration (no object's type has a slice or map of those).
// Its result is the holder again. Anything else keeps the write.

// configs follows apply configurations that hold references into the
// object (above).
type configs struct{ *site }

// setterHolds follows e, a reference given to call (stack[top]), a
// client-go setter that shares it: the configuration it lands in, and
// the call's result. ok is false when call is no such setter, or its
// receiver's configuration is not one -fix can follow.
func (si configs) setterHolds(stack []ast.Node, top int, call *ast.CallExpr, e ast.Expr) (how string, ok bool) {
	fn := si.calledSetter(call)
	if fn == nil || !slices.Contains(call.Args, e) {
		return "", false
	}
	root, fresh := si.configRoot(call.Fun.(*ast.SelectorExpr).X)
	if root == nil && !fresh {
		return "", false
	}
	if root != nil {
		if how := si.followHolder(root); how != "" {
			return "which keeps it in " + root.Name() + ", " + how, true
		}
	}
	if as, ok := stack[top-1].(*ast.AssignStmt); ok && root != nil && len(as.Lhs) == 1 && len(as.Rhs) == 1 && identOf(si.pass, as.Lhs[0]) == root {
		return "", true // cfg = cfg.WithF(ref): cfg, followed above
	}
	switch direct, how := si.refs().chainChange(stack, top); {
	case direct:
		return "whose configuration is changed at " + si.where(call.Pos()), true
	case how != "":
		return "whose configuration, at " + si.where(call.Pos()) + ", " + how, true
	}
	return "", true
}

// calledSetter is the With* setter of a client-go apply configuration
// call calls through a value (x.WithF(...)), nil for any other call.
func (si configs) calledSetter(call *ast.CallExpr) *types.Func {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := si.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil
	}
	fn, _ := s.Obj().(*types.Func)
	if fn == nil || !isApplySetter(fn) {
		return nil
	}
	return fn
}

// configRoot is the local a configuration x is reached from (cfg,
// cfg.Spec, through fields), declared in the function's body; fresh
// when x is made by a constructor of client-go's applyconfigurations
// (a function of one of its packages, not a method), or a setter called
// on one.
func (si configs) configRoot(x ast.Expr) (root *types.Var, fresh bool) {
	for {
		switch n := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			if s := si.pass.TypesInfo.Selections[n]; s == nil || s.Kind() != types.FieldVal {
				return nil, false
			}
			x = n.X
		case *ast.Ident:
			v := returns(si).localOf(n)
			if v == nil || si.isParam(v) {
				return nil, false
			}
			return v, false
		case *ast.CallExpr:
			if fn := si.calledSetter(n); fn != nil {
				x = n.Fun.(*ast.SelectorExpr).X
				continue
			}
			fn, _ := si.calledFunc(n)
			return nil, fn != nil && fn.Signature().Recv() == nil && fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), applyConfigPrefix)
		default:
			return nil, false
		}
	}
}

// calledFunc is the function call names, if any.
func (si configs) calledFunc(call *ast.CallExpr) (*types.Func, bool) {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil, false
	}
	fn, ok := si.pass.TypesInfo.Uses[id].(*types.Func)
	return fn, ok
}

// isParam reports whether v is a parameter or receiver of a function
// (its caller holds what it points to too).
func (si configs) isParam(v *types.Var) bool {
	for _, f := range si.pass.Files {
		if f.FileStart > v.Pos() || v.Pos() >= f.FileEnd {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			ft, ok := n.(*ast.FuncType)
			if found || !ok {
				return !found
			}
			for _, l := range []*ast.FieldList{ft.Params, ft.Results} {
				if l != nil && l.Pos() <= v.Pos() && v.Pos() < l.End() {
					found = true
				}
			}
			return !found
		})
		if fd := si.enclosingDecl(v); fd != nil && fd.Recv != nil && fd.Recv.Pos() <= v.Pos() && v.Pos() < fd.Recv.End() {
			found = true
		}
		return found
	}
	return true
}

// enclosingDecl is the function declaration v is declared in.
func (si configs) enclosingDecl(v *types.Var) *ast.FuncDecl {
	for _, f := range si.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= v.Pos() && v.Pos() < fd.End() {
				return fd
			}
		}
	}
	return nil
}

// followHolder follows a configuration local that holds a reference into
// the object, its locals counted afresh (as followInto does); one
// already being followed is judged there.
func (si configs) followHolder(v *types.Var) string {
	if slices.Contains(si.intoParams, v) {
		return ""
	}
	depth := si.localDepth
	si.localDepth, si.intoParams = 0, append(si.intoParams, v)
	defer func() { si.localDepth, si.intoParams = depth, si.intoParams[:len(si.intoParams)-1] }()
	return si.refs().followLocal(v)
}

// holderSetter reports whether the method s, called on a configuration
// that holds a reference into the object, writes only the
// configuration's own memory (see above): its result is the holder.
func holderSetter(s *types.Selection) bool {
	fn, _ := s.Obj().(*types.Func)
	if fn == nil || s.Kind() != types.MethodVal || !isApplySetter(fn) {
		return false
	}
	p := fn.Signature().Params().At(0)
	switch p.Name() {
	case "value":
		return true
	case "values":
		if sl, ok := p.Type().Underlying().(*types.Slice); ok {
			return applyConfigType(sl.Elem())
		}
	case "entries":
		if m, ok := p.Type().Underlying().(*types.Map); ok {
			return !holdsRefs(m.Key()) && applyConfigType(m.Elem())
		}
	}
	return false
}

// applyConfigType reports whether t is, or points to, a type of
// client-go's apply configurations.
func applyConfigType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && strings.HasPrefix(n.Obj().Pkg().Path(), applyConfigPrefix)
}

// backToItself reports whether as assigns e, a chain from the local
// being followed (stack's last identifier), back to that local.
func (si configs) backToItself(stack []ast.Node, as *ast.AssignStmt, e ast.Expr) bool {
	id, ok := stack[len(stack)-1].(*ast.Ident)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	i := slices.Index(as.Rhs, e)
	if i < 0 {
		return false
	}
	l, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
	return ok && si.pass.TypesInfo.ObjectOf(l) != nil && si.pass.TypesInfo.ObjectOf(l) == si.pass.TypesInfo.ObjectOf(id)
}
