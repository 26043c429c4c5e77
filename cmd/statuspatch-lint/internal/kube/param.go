package kube

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// EnclosingFunc returns the function declaration of pass's files whose
// body holds pos, or nil.
func EnclosingFunc(pass *analysis.Pass, pos token.Pos) *ast.FuncDecl {
	for _, f := range pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Body.Pos() <= pos && pos <= fd.Body.End() {
				return fd
			}
		}
	}
	return nil
}

// CalledFunc returns the function or method a call expression calls
// statically, or nil: for a generic one, called with its type arguments
// written (F[int](x), pkg.F[K, V](x)) or inferred, or a method of an
// instance of a generic type, the function as declared (Origin), which
// the package's declarations and facts are keyed by. An interface's
// method is returned as it is (typeutil.StaticCallee drops it).
func CalledFunc(pass *analysis.Pass, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch ix := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(ix.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(ix.X)
	}
	var id *ast.Ident
	switch fun := fun.(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil
	}
	fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// ParamObject returns the parameter of type kind (or *kind) of the
// function declaring ctor that the configuration's name argument names
// (w.Name, w.GetName()), for a helper that applies the status of the
// object its callers pass: its resourceVersion is the version the caller
// read, when every call of the function in the package passes an object
// the caller fetched with Get before the call (FetchedObjects) and the
// function is used in calls only and is not exported (no caller out of
// sight). found reports whether the name is a parameter of kind; why,
// when it is but a caller breaks the rule, says which.
func ParamObject(pass *analysis.Pass, ctor *ast.CallExpr, kind string) (param *types.Var, found bool, why string) {
	if len(ctor.Args) == 0 {
		return nil, false, ""
	}
	id, ok := RootIdent(ctor.Args[0])
	if !ok {
		return nil, false, ""
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil, false, ""
	}
	if n := NamedOf(v.Type()); n == nil || n.Obj().Name() != kind {
		return nil, false, ""
	}
	decl := EnclosingFunc(pass, ctor.Pos())
	if decl == nil {
		return nil, false, ""
	}
	fn, _ := pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return nil, false, ""
	}
	params := fn.Type().(*types.Signature).Params()
	index := -1
	for i := range params.Len() {
		if params.At(i) == v {
			index = i
		}
	}
	if index < 0 {
		return nil, false, ""
	}
	where := fmt.Sprintf("%s is a parameter of %s", v.Name(), fn.Name())
	if fn.Exported() {
		return v, true, where + ", which is exported: its callers out of this package are not seen"
	}
	if line := assignedAt(pass, decl.Body, v); line > 0 {
		return v, true, fmt.Sprintf("%s, which assigns it at line %d: the object may not be the one its callers read", where, line)
	}
	calls := 0
	uses := 0
	for use, o := range pass.TypesInfo.Uses {
		if o == fn && use != decl.Name {
			uses++
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if CalledFunc(pass, call) != fn {
				return true
			}
			calls++
			line := pass.Fset.Position(call.Pos()).Line
			if call.Ellipsis.IsValid() || index >= len(call.Args) {
				why = fmt.Sprintf("%s: its call at line %d passes its arguments as a slice", where, line)
				return false
			}
			arg, ok := RootIdent(call.Args[index])
			if ok {
				av, _ := pass.TypesInfo.Uses[arg].(*types.Var)
				for _, f := range FetchedObjects(pass, call, kind) {
					if f.Obj == av {
						return true
					}
				}
			}
			why = fmt.Sprintf("%s: its caller at line %d passes an object it did not fetch with Get before the call", where, line)
			return false
		})
	}
	switch {
	case why != "":
		return v, true, why
	case calls != uses:
		return v, true, where + ", which is used other than in a call"
	case calls == 0:
		return v, true, where + ", which has no caller in the package"
	}
	return v, true, ""
}

// assignedAt returns the line of the first assignment to v in body (v =
// ..., v, err = ...), or 0.
func assignedAt(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) int {
	line := 0
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && pass.TypesInfo.ObjectOf(id) == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if line > 0 {
			return false
		}
		if x, ok := n.(*ast.AssignStmt); ok {
			for _, l := range x.Lhs {
				if is(l) {
					line = pass.Fset.Position(x.Pos()).Line
				}
			}
		}
		return true
	})
	return line
}
