package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A holder of a concrete type: lws's ensureNewLWSExists puts the
// DisaggregatedSet ds in a disaggregatedsetutils.CreateParams{DisaggregatedSet: ds, ...}
// literal (a struct of another package, its field a *DisaggregatedSet)
// and gives it to LeaderWorkerSetManager.Create, a method of its own
// package, which reads the object's name, namespace, uid and placement
// policy there. The holder is followed as held.go follows one whose field
// is an interface, but the field's type says which object it is: into the
// function or method of the package it is given to (directly, through a
// local it is put in, by value or by address), where each use of the
// parameter's field (params.DisaggregatedSet) is judged as a use of the
// object itself (checkUse: read, its status changed, given to a reader or
// to a function that changes at most its status), and the parameter's
// other fields are its own. A function of another package is judged by
// its ParamsFact.HeldStructs (paramsheldstructfacts.go). Anything else
// keeps the write, naming the line: the object changed beyond its status
// there, the holder handed on (a field it is kept in, a return, a
// function value, an interface's method), or a method of the holder
// called.
type structHeld struct{ checks }

// use judges a use of v (the last node of stack) as the value of a field
// of a struct literal whose type is the object's own (not an interface:
// held.use's): ok is false for any other use.
func (s structHeld) use(stack []ast.Node, v *types.Var, depth int) (ok bool, why string) {
	at, f := s.literalField(stack)
	if f == nil {
		return false, ""
	}
	lit := stack[at].(*ast.CompositeLit)
	if why := s.follow(stack, at, f, depth); why != "" {
		what := fmt.Sprintf("%s is put in the %s made at %s", v.Name(), typeText(s.pass.TypesInfo.TypeOf(lit), s.pass.Pkg), s.where(lit.Pos()))
		return true, what + ", and " + why
	}
	return true, ""
}

// literalField is, for the last node of stack given as a field's value
// in a struct literal (keyed or not), the literal's index in stack and
// the field, when the field's type may be an object and is no interface.
func (s structHeld) literalField(stack []ast.Node) (at int, f *types.Var) {
	i := len(stack) - 1
	if i < 2 {
		return -1, nil
	}
	e, _ := stack[i].(ast.Expr)
	var lit *ast.CompositeLit
	name, pos := "", -1
	switch p := stack[i-1].(type) {
	case *ast.KeyValueExpr:
		key, isKey := p.Key.(*ast.Ident)
		lit, _ = stack[i-2].(*ast.CompositeLit)
		if !isKey || p.Value != e {
			return -1, nil
		}
		name, at = key.Name, i-2
	case *ast.CompositeLit:
		lit, pos, at = p, slices.Index(p.Elts, e), i-1
	}
	if lit == nil || e == nil {
		return -1, nil
	}
	st, ok := s.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return -1, nil
	}
	for j := range st.NumFields() {
		fld := st.Field(j)
		if fld.Name() != name && (name != "" || j != pos) {
			continue
		}
		if fld.Embedded() || types.IsInterface(fld.Type()) || !mayBeObject(fld.Type()) {
			return -1, nil
		}
		return at, fld
	}
	return -1, nil
}

// follow follows the holder stack[at] (or its address) to where it goes:
// an argument of a call (passed), or a local it defines, whose uses are
// followed as a parameter's. why says what else happens to it.
func (s structHeld) follow(stack []ast.Node, at int, f *types.Var, depth int) string {
	if u, ok := stack[at-1].(*ast.UnaryExpr); ok && u.Op == token.AND && at > 1 {
		at--
	}
	e := stack[at].(ast.Expr)
	switch p := stack[at-1].(type) {
	case *ast.CallExpr:
		if arg := slices.Index(p.Args, e); arg >= 0 {
			if why := s.passed(p, arg, f, depth); why != "" {
				return "it is " + why
			}
			return ""
		}
	case *ast.AssignStmt, *ast.ValueSpec:
		if local, blank := s.refs().definedLocal(p, e); blank {
			return ""
		} else if local != nil {
			return s.local(local, f, depth)
		}
	}
	return "it is handed on at " + s.where(e.Pos())
}

// passed judges the holder given as argument arg of call: "" when the
// callee only reads the object it holds in f, or changes at most its
// status; else why, after "it is ".
func (s structHeld) passed(call *ast.CallExpr, arg int, f *types.Var, depth int) string {
	fn := kube.CalledFunc(s.pass, call)
	line := s.where(call.Pos())
	if fn == nil {
		return fmt.Sprintf("passed to the function value %s at %s, which -fix does not follow with what it holds", types.ExprString(call.Fun), line)
	}
	name := funcName(fn, s.pass.Pkg)
	sig := fn.Signature()
	switch {
	case call.Ellipsis.IsValid() || sig.Variadic() && arg >= sig.Params().Len()-1:
		return fmt.Sprintf("passed to %s at %s among its variadic arguments, which -fix does not follow with what they hold", name, line)
	case isIfaceMethod(fn):
		return fmt.Sprintf("passed to %s at %s, a method of an interface, whose implementations -fix does not follow with what a holder of a concrete type holds", name, line)
	case sig.Recv() != nil && !isMethodCall(s.pass, call):
		return fmt.Sprintf("passed to the method expression %s at %s, which -fix does not follow with what it holds", types.ExprString(call.Fun), line)
	case fn.Pkg() != s.pass.Pkg:
		if why := s.imported(fn, arg, f); why != "" {
			return fmt.Sprintf("passed to %s at %s, %s", name, line, why)
		}
		return ""
	case slices.Contains(s.following, fn):
		return "" // a recursive call: its uses are the ones being checked
	case depth >= maxCalleeDepth:
		return fmt.Sprintf("passed to %s at %s, and the calls go on deeper than %d functions of the package, which -fix does not follow", name, line, maxCalleeDepth)
	}
	fd := s.funcDecl(fn.Origin())
	var params []*types.Var
	if fd != nil {
		for _, field := range fd.Type.Params.List {
			for _, n := range field.Names {
				p, _ := s.pass.TypesInfo.Defs[n].(*types.Var)
				params = append(params, p)
			}
		}
	}
	if fd == nil || fd.Body == nil || arg >= len(params) {
		return fmt.Sprintf("passed to %s at %s, whose body -fix does not see", name, line)
	}
	if params[arg] == nil || params[arg].Name() == "_" {
		return "" // unnamed: it has no uses
	}
	s.following = append(s.following, fn)
	defer func() { s.following = s.following[:len(s.following)-1] }()
	if why := s.uses(fd.Body, params[arg], f, depth+1); why != "" {
		return fmt.Sprintf("passed to %s at %s, where %s", name, line, why)
	}
	return ""
}

// local follows the uses of local, a holder of the object in f defined in
// the function being checked, as a parameter's.
func (s structHeld) local(local *types.Var, f *types.Var, depth int) string {
	scope := local.Parent()
	for _, file := range s.pass.Files {
		if scope != nil && file.FileStart <= local.Pos() && local.Pos() < file.FileEnd {
			return s.usesIn(file, local, f, scope.Pos(), scope.End(), depth)
		}
	}
	return local.Name() + " is not followed"
}

// uses judges each use of p, a holder of the object in f, in body.
func (s structHeld) uses(body *ast.BlockStmt, p *types.Var, f *types.Var, depth int) string {
	return s.usesIn(body, p, f, body.Pos(), body.End(), depth)
}

// usesIn judges each use of the holder h in root between from and to: its
// field f is the object (checkUse, as a variable named h.f), its other
// fields its own; compared, or given to a function (passed), it goes on.
func (s structHeld) usesIn(root ast.Node, h *types.Var, f *types.Var, from, to token.Pos, depth int) string {
	obj := types.NewVar(f.Pos(), f.Pkg(), h.Name()+"."+f.Name(), f.Type())
	return s.eachUse(root, h, from, to, func(stack []ast.Node, id *ast.Ident) string {
		line := s.where(id.Pos())
		switch q := stack[len(stack)-2].(type) {
		case *ast.SelectorExpr:
			sel := s.pass.TypesInfo.Selections[q]
			switch {
			case q.X != ast.Expr(id) || sel == nil:
			case sel.Kind() == types.FieldVal && sel.Obj() == f && len(sel.Index()) == 1:
				return s.checkUse(root, stack[:len(stack)-1], nil, obj, to, depth)
			case sel.Kind() == types.FieldVal:
				return "" // another field of the holder: not the object
			default:
				return fmt.Sprintf("its method %s is called at %s, which -fix does not follow with what %s holds", q.Sel.Name, line, id.Name)
			}
		case *ast.BinaryExpr:
			if q.Op == token.EQL || q.Op == token.NEQ {
				return "" // compared, as with nil
			}
		case *ast.StarExpr:
			// *params: the holder's value, followed where it goes.
			if why := s.follow(stack, len(stack)-2, f, depth); why != "" {
				return fmt.Sprintf("*%s at %s: %s", id.Name, line, why)
			}
			return ""
		case *ast.CallExpr:
			if arg := slices.Index(q.Args, ast.Expr(id)); arg >= 0 {
				if why := s.passed(q, arg, f, depth); why != "" {
					return fmt.Sprintf("%s is %s", id.Name, why)
				}
				return ""
			}
		}
		return fmt.Sprintf("%s is handed on at %s", id.Name, line)
	})
}
