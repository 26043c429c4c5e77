package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// calleeWalk follows one parameter through a body: whole holds the
// variables holding the object (or a copy of its pointer), status those
// holding a part of its status.
type calleeWalk struct {
	s      *calleeSums
	info   *types.Info
	depth  int
	e      *calleeEffect
	whole  map[*types.Var]bool
	status map[*types.Var]bool
	// results are the named results of the bodies walked, which a bare
	// return gives back.
	results []*types.Var
}

// held says whether e is rooted at a variable holding the object, and
// whether through its status.
func (w *calleeWalk) held(e ast.Expr) (rooted, status bool) {
	v, through := w.path(e)
	switch {
	case v == nil:
		return false, false
	case w.status[v]:
		return true, true
	case w.whole[v]:
		return true, through
	}
	return false, false
}

func (w *calleeWalk) at(n ast.Node) string {
	p := w.s.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func (w *calleeWalk) change(n ast.Node, e ast.Expr, status bool) {
	what := "sets " + exprText(w.s.fset, e) + " at " + w.at(n)
	if status && w.e.status.what == "" {
		w.e.status.what = what
	}
	if w.e.any.what == "" {
		w.e.any.what = what
	}
}

func (w *calleeWalk) node(n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			if rooted, status := w.held(l); rooted && (status || isDeref(l)) {
				w.change(n, l, true)
			} else if rooted && !isBare(l) {
				w.change(n, l, false)
			}
			if len(n.Lhs) == len(n.Rhs) && !typeSwitchGuard(n.Rhs[i]) {
				w.flow(n, l, n.Rhs[i])
			}
		}
		if len(n.Lhs) > 1 && len(n.Rhs) == 1 && commaOk(n.Rhs[0]) {
			w.flow(n, n.Lhs[0], n.Rhs[0]) // v, ok := x.(T), m[k], <-ch; v, err := f(x)
		}
	case *ast.TypeSwitchStmt:
		w.typeSwitch(n)
	case *ast.RangeStmt:
		for _, l := range []ast.Expr{n.Key, n.Value} {
			if l != nil && refType(w.info.TypeOf(l)) {
				w.flow(n, l, n.X)
			}
		}
	case *ast.SendStmt:
		if w.carries(n.Value) {
			w.unknown(n, "sends "+exprText(w.s.fset, n.Value)+" on "+exprText(w.s.fset, n.Chan))
		}
	case *ast.FuncLit:
		w.namedResults(n.Type)
	case *ast.ValueSpec:
		for i, id := range n.Names {
			if i < len(n.Values) {
				w.flow(n, id, n.Values[i])
			}
		}
	case *ast.IncDecStmt:
		if rooted, status := w.held(n.X); rooted {
			w.change(n, n.X, status)
		}
	case *ast.CompositeLit:
		for _, el := range n.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if w.carries(el) {
				w.unknown(el, "keeps "+exprText(w.s.fset, el)+" in a value")
			}
		}
	case *ast.ReturnStmt:
		if len(n.Results) == 0 {
			w.bareReturn(n)
		}
		for _, r := range n.Results {
			if w.carries(r) {
				w.unknown(r, "returns "+exprText(w.s.fset, r))
			}
		}
	case *ast.CallExpr:
		w.call(n)
	}
}

// flow follows r assigned to l: a local variable of the object or of its
// status joins it; the object or its status kept anywhere else is a
// reference -fix does not follow.
func (w *calleeWalk) flow(n ast.Node, l, r ast.Expr) {
	if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && w.builtin(c) == "append" && len(c.Args) > 1 {
		for _, a := range c.Args[1:] {
			w.flow(n, l, a) // what is appended is kept where the result is
		}
		return
	}
	if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name == "_" {
		return // discarded
	}
	if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && refType(w.info.TypeOf(c)) && !errorResult(w.info.TypeOf(c)) {
		if a := w.aliased(c); a != nil {
			r = a // its result may point into what it was given
		}
	}
	if !w.carries(r) {
		return
	}
	_, status := w.held(r)
	if id, ok := ast.Unparen(l).(*ast.Ident); ok {
		if v, _ := w.info.ObjectOf(id).(*types.Var); v != nil && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
			if status {
				w.status[v] = true
			} else {
				w.whole[v] = true
			}
			return
		}
	}
	w.unknown(n, "keeps "+exprText(w.s.fset, r)+" in "+exprText(w.s.fset, l))
}

// typeSwitchGuard reports whether e is x.(type): typeSwitch follows it.
func typeSwitchGuard(e ast.Expr) bool {
	a, ok := ast.Unparen(e).(*ast.TypeAssertExpr)
	return ok && a.Type == nil
}

// commaOk reports whether e, alone on the right of two or more, gives
// its value first: x.(T), m[k], <-ch, f(x).
func commaOk(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.TypeAssertExpr, *ast.IndexExpr, *ast.CallExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}

// reference reports whether e's value shares memory with the object.
func (w *calleeWalk) reference(e ast.Expr) bool {
	if isAddr(ast.Unparen(e)) {
		return true
	}
	return refType(w.info.TypeOf(e))
}

// call follows the object into a call: a method of it, or an argument.
func (w *calleeWalk) call(call *ast.CallExpr) {
	switch w.builtin(call) {
	case "":
		if w.conversion(call) {
			return // the object again: path follows it
		}
	case "copy", "clear", "delete":
		if rooted, status := w.held(call.Args[0]); rooted {
			w.change(call, call.Args[0], status)
		}
		return
	default:
		return // append's arguments: flow; the others read
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if rooted, status := w.held(sel.X); rooted && w.info.Selections[sel] != nil {
			w.into(call, sel.X, -1, status)
		}
	}
	for i, a := range call.Args {
		if w.carries(a) {
			_, status := w.held(a)
			w.into(call, a, i, status)
		}
	}
}

// aliased is the receiver or argument carrying the object that call, to
// a function outside the module, is given: its result may point into it
// (meta.FindStatusCondition(d.Status.Conditions, t)). A function of the
// module shows what it gives back (its returns block); a copy does not
// share it.
func (w *calleeWalk) aliased(call *ast.CallExpr) ast.Expr {
	fn := typeutil.StaticCallee(w.info, call)
	if fn == nil || strings.HasPrefix(fn.Name(), "DeepCopy") {
		return nil
	}
	if decl, _ := w.s.bodies(fn); decl != nil {
		return nil
	}
	args := call.Args
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && w.info.Selections[sel] != nil {
		args = append([]ast.Expr{sel.X}, args...)
	}
	for _, a := range args {
		if w.carries(a) {
			return a
		}
	}
	return nil
}

// errorResult reports whether a call of type t gives an error first: an
// error is no reference into what the call was given.
func errorResult(t types.Type) bool {
	if tu, ok := t.(*types.Tuple); ok && tu.Len() > 0 {
		t = tu.At(0).Type()
	}
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// builtin is the name of the builtin call calls, or "".
func (w *calleeWalk) builtin(call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) == 0 {
		return ""
	}
	if _, ok := w.info.Uses[id].(*types.Builtin); !ok {
		return ""
	}
	return id.Name
}

// into summarises the callee of call for the object (or a part of its
// status) it is given as arg.
func (w *calleeWalk) into(call *ast.CallExpr, a ast.Expr, arg int, part bool) {
	fn := typeutil.StaticCallee(w.info, call)
	name := exprText(w.s.fset, call.Fun)
	var e *calleeEffect
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && arg >= 0 {
		e, name = w.s.literal(lit, w.info, arg, part, w.depth+1), "a function literal"
	}
	if e == nil && fn == nil {
		if verb := clientVerb(w.info, call); verb != "" && w.e.status.what == "" {
			w.e.status.what = "hands " + exprText(w.s.fset, a) + " to its client's " + verb + " at " + w.at(call) + ", which decodes the server's answer into it"
		} else if w.e.unknown.what == "" {
			w.e.unknown.what = "hands " + exprText(w.s.fset, a) + " to " + dynamicCall(w.info, call) + " -fix cannot follow, at " + w.at(call)
		}
		return
	}
	if e == nil {
		arg = calleeArg(w.info, call, arg)
		if decl, _ := w.s.bodies(fn); decl == nil {
			if !externalReads(fn, arg) && w.e.unknown.what == "" {
				w.e.unknown.what = "hands " + exprText(w.s.fset, a) + " to " + fn.FullName() + " at " + w.at(call) + ", outside the module"
			}
			return
		}
		e = w.s.effect(fn, arg, part, w.depth+1)
	}
	via := name + " at " + w.at(call)
	switch {
	case e.status.what != "":
		w.first(&w.e.status, e.status.under(via))
	case part && e.any.what != "":
		w.first(&w.e.status, e.any.under(via))
	case e.unknown.what != "":
		w.first(&w.e.unknown, e.unknown.under(via))
	}
	if e.any.what != "" {
		w.first(&w.e.any, e.any.under(via))
	}
}

// first keeps the first fact found.
func (w *calleeWalk) first(dst *trail, t trail) {
	if dst.what == "" {
		*dst = t
	}
}

// clientVerb is the method of controller-runtime's client call makes
// that decodes the server's answer into its object, or "".
func clientVerb(info *types.Info, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s := info.Selections[sel]
	if s == nil || s.Obj().Pkg() == nil || !strings.HasPrefix(s.Obj().Pkg().Path(), kube.ClientPkgPath) {
		return ""
	}
	switch sel.Sel.Name {
	case "Get", "Create", "Update", "Patch", "Delete", "Apply":
		return sel.Sel.Name
	}
	return ""
}

// loggers are the packages whose functions and methods only format what
// they are given.
var loggers = map[string]bool{"fmt": true, "log": true, "log/slog": true, "github.com/go-logr/logr": true, "k8s.io/klog/v2": true}

// externalReads reports whether fn, outside the module, leaves the status
// of its argument arg (-1: its receiver) as it is: readsObject's, a
// method of the embedded ObjectMeta or TypeMeta, a logger's, a getter, a
// check or a copy by its name (readsOnlyName).
func externalReads(fn *types.Func, arg int) bool {
	if fn.Pkg() == nil {
		return false
	}
	if i, ok := readsObject[fn.Pkg().Path()][fn.Name()]; ok && (i == anyArg || i == arg) {
		return true
	}
	if recv := fn.Signature().Recv(); arg < 0 && recv != nil && fn.Pkg().Path() == kube.MetaPkgPath {
		if n := kube.NamedOf(recv.Type()); n != nil && (n.Obj().Name() == "ObjectMeta" || n.Obj().Name() == "TypeMeta") {
			return true // an embedded ObjectMeta's setter changes the metadata alone
		}
	}
	return loggers[fn.Pkg().Path()] || fn.Name() != "Get" && readsOnlyName(fn.Name(), arg) // a Get decodes into it
}
