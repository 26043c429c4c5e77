package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A function value the client-set walk (migrateclientsetwalk.go) meets
// may be a parameter, or a local a call of the package returned: lws's
// DisaggregatedSetReconciler.Reconcile takes seedFor from seedForRole,
// which returns a closure reading a map, and hands it to
// ScalerManager.Reconcile, which calls it (s104: kept, "seedFor is a
// function value -fix does not resolve").
//
//   - A parameter is what the call the walk entered its function by
//     hands it there (walkFrame), resolved where that call is: only that
//     call runs between the read and the write, whoever else may call the
//     function. Where the walk entered the function with no call it sees
//     (another package handed a value whose exported method it is, or
//     the function the walk starts in), it is each argument every call of
//     its function in the package hands it, when those are all its calls:
//     a function the package uses other than by calling it, an exported
//     one, a function literal's parameter, a parameter set in its body or
//     variadic keeps the write, naming why.
//   - A call's result is each value its function's returns give (a
//     function of the package, not in a nested literal), resolved there,
//     its parameters bound to that call's arguments.
//
// Each value so found is judged by its body where it is called; anything
// else keeps the write, naming the call and why.

// walkFrame is a body the walk follows, entered by call (nil: by code
// whose arguments it does not see); its arguments are resolved in the
// frames below ctx. bound says its result depends on them: it is not
// kept in setWalk.done.
type walkFrame struct {
	body  ast.Node
	call  *ast.CallExpr
	ctx   int
	bound bool
}

// localSetAside reports whether the local v, a client's root, may be set
// other than by its function's own statements: a function literal of it
// assigns v, or v's address is taken (sub := ...; ensure := func() { sub
// = &oar{c: d.Client} }; ensure()). The walk then takes it for a root.
func (si *site) localSetAside(v *types.Var) bool {
	if _, ok := si.cursor(si.pass.Files[0]); !ok {
		return false
	}
	c, ok := si.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return false
	}
	for fd := range c.Enclosing((*ast.FuncDecl)(nil)) {
		return writesVar(si.pass, fd, v, true, nil) != nil
	}
	return false
}

// onStack reports whether the walk is inside body's walk (a recursive
// call: its arguments are judged as handed to code it does not follow).
func (w *setWalk) onStack(body ast.Node) bool {
	for _, f := range w.frames {
		if f.body == body {
			return true
		}
	}
	return false
}

// valueOf is the functions x, a local or parameter called or handed on,
// may be, when it is a parameter or a local defined with a call or a
// parameter; ok is false otherwise (refsfuncvalue.go's rules stand).
func (w *setWalk) valueOf(x ast.Expr) (vals []funcValue, why string, ok bool) {
	id, isID := ast.Unparen(x).(*ast.Ident)
	v := w.localVar(id)
	if !isID || v == nil {
		return nil, "", false
	}
	if _, _, isParam := w.paramOf(v); !isParam {
		def, why, ok := w.si.localValue(v, nil)
		if !ok || why != "" {
			return nil, "", false
		}
		switch d := def.(type) {
		case *ast.CallExpr:
			if tv, ok := w.si.pass.TypesInfo.Types[d.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return nil, "", false
			}
		case *ast.Ident:
			if p := w.localVar(d); p == nil {
				return nil, "", false
			} else if _, _, isParam := w.paramOf(p); !isParam {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
	}
	return w.exprValues(id, len(w.frames), map[ast.Node]bool{})
}

// localVar is the local variable (not a field, not the package's) id
// names, or nil.
func (w *setWalk) localVar(id *ast.Ident) *types.Var {
	if id == nil {
		return nil
	}
	v, _ := w.si.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.IsField() || v.Parent() == w.si.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// exprValues is the functions x may be, its parameters resolved in the
// frames below limit (seen: the functions being resolved).
func (w *setWalk) exprValues(x ast.Expr, limit int, seen map[ast.Node]bool) (vals []funcValue, why string, ok bool) {
	x = ast.Unparen(x)
	switch e := x.(type) {
	case *ast.Ident:
		if _, isNil := w.si.pass.TypesInfo.Uses[e].(*types.Nil); isNil {
			return nil, "", true // a nil function: called, it panics; it sets nothing
		}
		if v := w.localVar(e); v != nil {
			if fn, idx, ok := w.paramOf(v); ok {
				return w.paramValues(v, fn, idx, limit, seen)
			}
			def, why, ok := w.si.localValue(v, nil)
			if !ok {
				return nil, fmt.Sprintf("%s is a function value -fix does not resolve", e.Name), true
			}
			if why != "" {
				return nil, why, true
			}
			return w.exprValues(def, limit, seen)
		}
	case *ast.CallExpr:
		return w.returnedValues(e, limit, seen)
	}
	vals, why, ok = w.si.valuesOf(x, nil)
	if !ok && why == "" {
		why = fmt.Sprintf("it may be %s, not a function of the package", types.ExprString(x))
	}
	return vals, why, true
}

// paramOf is the function declaration or literal declaring v as a
// parameter, and its index among the parameters.
func (w *setWalk) paramOf(v *types.Var) (fn ast.Node, idx int, ok bool) {
	if _, ok := w.si.cursor(w.si.pass.Files[0]); !ok {
		return nil, 0, false
	}
	c, ok := w.si.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return nil, 0, false
	}
	field, ok := c.Parent().Node().(*ast.Field)
	if !ok {
		return nil, 0, false
	}
	list := c.Parent().Parent()
	ft, ok := list.Parent().Node().(*ast.FuncType)
	if !ok || ft.Params != list.Node() {
		return nil, 0, false
	}
	switch list.Parent().Parent().Node().(type) {
	case *ast.FuncDecl, *ast.FuncLit:
	default:
		return nil, 0, false // a parameter of a function type
	}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if n == c.Node() {
				_, variadic := field.Type.(*ast.Ellipsis)
				if variadic {
					return nil, 0, false
				}
				return list.Parent().Parent().Node(), idx, true
			}
			idx++
		}
	}
	return nil, 0, false
}

// paramValues is the functions the parameter v (the idx-th of fn) may be
// where the walk is, its frames below limit: the argument the call that
// entered fn hands it, or each argument of fn's calls in the package.
func (w *setWalk) paramValues(v *types.Var, fn ast.Node, idx, limit int, seen map[ast.Node]bool) ([]funcValue, string, bool) {
	if c, ok := w.si.cursor(fn); ok {
		for set := range writesOf(c, func(e ast.Expr) bool { return identOf(w.si.pass, e) == v }, nil) {
			return nil, fmt.Sprintf("%s is set at %s", v.Name(), w.si.where(set.Node().Pos())), true
		}
	}
	for j := limit - 1; j >= 0; j = w.frames[j].ctx - 1 {
		f := w.frames[j]
		if f.body != fn {
			continue
		}
		if f.call == nil || len(f.call.Args) <= idx || f.call.Ellipsis.IsValid() {
			break
		}
		for k := j; k < len(w.frames); k++ {
			w.frames[k].bound = true
		}
		return w.exprValues(f.call.Args[idx], f.ctx, seen)
	}
	return w.callersValues(v, fn, idx, seen)
}

// callersValues is each argument the calls of fn in the package (not its
// tests) hand its idx-th parameter v, when those are all its calls.
func (w *setWalk) callersValues(v *types.Var, fn ast.Node, idx int, seen map[ast.Node]bool) ([]funcValue, string, bool) {
	info := w.si.pass.TypesInfo
	fd, ok := fn.(*ast.FuncDecl)
	if !ok {
		return nil, fmt.Sprintf("%s is a parameter of the function literal at %s", v.Name(), w.si.where(fn.Pos())), true
	}
	obj, _ := info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil, "", false
	}
	name := funcName(obj, w.si.pass.Pkg)
	if obj.Exported() {
		return nil, fmt.Sprintf("%s is a parameter of %s, which is exported: another package may call it with another function", v.Name(), name), true
	}
	if seen[fd] {
		return nil, "", true
	}
	seen[fd] = true
	var calls []*ast.CallExpr
	why := ""
	for _, f := range w.si.pass.Files {
		if testFile(w.si.pass, f) {
			continue // compiled only into the test binary
		}
		called := map[*ast.Ident]*ast.CallExpr{}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				called[fun] = call
			case *ast.SelectorExpr:
				called[fun.Sel] = call
				if s := info.Selections[fun]; s != nil && types.IsInterface(s.Recv()) && s.Obj().Name() == obj.Name() && recvType(obj) != nil && why == "" {
					why = fmt.Sprintf("%s is a parameter of %s, which may be called through an interface at %s", v.Name(), name, w.si.where(call.Pos()))
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || why != "" {
				return why == ""
			}
			if u, ok := info.Uses[id].(*types.Func); !ok || u.Origin() != obj {
				return true
			}
			if call, ok := called[id]; ok {
				calls = append(calls, call)
			} else {
				why = fmt.Sprintf("%s is a parameter of %s, which is used other than called at %s", v.Name(), name, w.si.where(id.Pos()))
			}
			return true
		})
		if why != "" {
			return nil, why, true
		}
	}
	var vals []funcValue
	for _, call := range calls {
		if len(call.Args) <= idx || call.Ellipsis.IsValid() {
			return nil, fmt.Sprintf("%s is a parameter of %s, whose call at %s hands it no single value", v.Name(), name, w.si.where(call.Pos())), true
		}
		vs, why, _ := w.exprValues(call.Args[idx], 0, seen)
		if why != "" {
			return nil, why, true
		}
		vals = append(vals, vs...)
	}
	return vals, "", true
}

// returnedValues is the functions the first result of call may be: what
// each return of its function, one of the package, gives, its
// parameters bound to call's arguments (resolved in the frames below
// limit).
func (w *setWalk) returnedValues(call *ast.CallExpr, limit int, seen map[ast.Node]bool) ([]funcValue, string, bool) {
	info := w.si.pass.TypesInfo
	fn := kube.CalledFunc(w.si.pass, call)
	if f, ok := typeutil.Callee(info, call).(*types.Func); fn == nil && ok {
		fn = f.Origin()
	}
	var fd *ast.FuncDecl
	if fn != nil {
		fd = w.si.funcDecl(fn)
	}
	if fd == nil || fd.Body == nil {
		return nil, fmt.Sprintf("it may be what %s returns, a function -fix does not see", types.ExprString(call.Fun)), true
	}
	if seen[fd] {
		return nil, "", true
	}
	seen[fd] = true
	defer delete(seen, fd)
	n := fn.Signature().Results().Len()
	w.frames = append(w.frames, walkFrame{body: fd, call: call, ctx: limit})
	top := len(w.frames)
	defer func() { w.frames = w.frames[:top-1] }()
	var vals []funcValue
	why := ""
	ast.Inspect(fd.Body, func(x ast.Node) bool {
		switch r := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if why != "" {
				return false
			}
			if len(r.Results) != n {
				why = fmt.Sprintf("%s returns at %s what -fix does not resolve", funcName(fn, w.si.pass.Pkg), w.si.where(r.Pos()))
				return false
			}
			vs, y, _ := w.exprValues(r.Results[0], top, seen)
			vals, why = append(vals, vs...), y
			if why != "" {
				why = fmt.Sprintf("%s, returned by %s at %s", why, funcName(fn, w.si.pass.Pkg), w.si.where(r.Pos()))
			}
			return false
		}
		return true
	})
	if why != "" {
		return nil, why, true
	}
	return vals, "", true
}
