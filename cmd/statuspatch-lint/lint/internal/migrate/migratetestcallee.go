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

// A test's call that hands its object to a function of the module
// (kueue's clusterqueue_controller_test.go:215,
// cqCache.AddClusterQueue(ctx, cq)) is judged by that function's body,
// to the end of the chain, not by its name: the command types the
// package's in-package test files (lint.ResolveTestCalls) and gives the
// module's bodies (Callees). A call that only reads the object, or
// changes only what the Update would not send (its spec, its labels,
// references into them kept), leaves the test call rewritable; one that
// may change its status keeps the helper, naming the deepest line; one
// whose callee the bodies cannot show (an interface method, a function
// value, a function outside the module other than a getter) keeps it,
// naming which.

// Callees gives the body of a function of the module, with its
// package's types, or nil when fn is not the module's or has no body
// loaded from source.
type Callees func(fn *types.Func) (*ast.FuncDecl, *types.Info)

// CallJudge says what a test's call does to the object it hands on as
// argument arg (-1: the call's receiver): known is false when the call's
// callee is not the module's (the names judge it, readsOnly); else tail
// is "" when it leaves the status as it is, or says why it may not
// (", which sets cq.Status.X at f.go:9, through g").
type CallJudge func(call *ast.CallExpr, arg int) (tail string, known bool)

// NewCallJudge judges the calls of test files typed by info.
func NewCallJudge(fset *token.FileSet, info *types.Info, bodies Callees) CallJudge {
	s := &calleeSums{fset: fset, bodies: bodies, memo: map[calleeKey]*calleeEffect{}}
	return func(call *ast.CallExpr, arg int) (string, bool) {
		var e *calleeEffect
		if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && arg >= 0 {
			e = s.literal(lit, info, arg, 0)
		}
		fn := typeutil.StaticCallee(info, call)
		if e == nil && fn == nil {
			if _, ok := info.TypeOf(call.Fun).(*types.Signature); !ok || clientVerb(info, call) != "" {
				return "", false // untyped (an import the command did not load), or the client's
			}
			return ", " + dynamicCall(info, call) + " -fix cannot follow: it may change it", true
		}
		if e == nil {
			if decl, _ := bodies(fn); decl == nil {
				return "", false
			}
			e = s.effect(fn, arg, 0)
		}
		part := arg >= 0 && arg < len(call.Args) && throughStatus(call.Args[arg])
		switch {
		case e.unknown.what != "":
			return ", which " + e.unknown.String() + ": it may change it", true
		case e.status.what != "":
			return ", which " + e.status.String(), true
		case part && e.any.what != "":
			return ", which " + e.any.String(), true
		}
		return "", true
	}
}

// dynamicCall names a call whose callee the types do not fix.
func dynamicCall(info *types.Info, call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && types.IsInterface(s.Recv()) {
			return "the interface method " + types.TypeString(s.Recv(), byName) + "." + sel.Sel.Name + ", whose implementations"
		}
	}
	return "a function value, whose body"
}

// byName qualifies a type by its package's name.
func byName(p *types.Package) string { return p.Name() }

type calleeKey struct {
	fn  *types.Func
	arg int
}

// calleeEffect is what a function does to the object one parameter
// holds: status, the deepest line changing its status; any, the deepest
// line changing anything in it (for a parameter given a part of the
// status); unknown, a call it hands it to that the bodies cannot show.
type calleeEffect struct{ status, any, unknown trail }

// trail is a fact about the object and the calls it was found through,
// the outermost first: "sets d.Status.X at f.go:9, through g at f.go:3".
type trail struct {
	what string
	via  []string
}

func (t trail) String() string {
	if len(t.via) == 0 {
		return t.what
	}
	return t.what + ", through " + strings.Join(t.via, ", ")
}

// under is t found in a callee of call, named at.
func (t trail) under(at string) trail {
	return trail{t.what, append([]string{at}, t.via...)}
}

type calleeSums struct {
	fset   *token.FileSet
	bodies Callees
	memo   map[calleeKey]*calleeEffect
}

// effect summarises fn's parameter arg (-1: its receiver). A call back
// into a function being summarised adds nothing (the changes are found
// on the path that makes them).
func (s *calleeSums) effect(fn *types.Func, arg, depth int) *calleeEffect {
	fn = fn.Origin()
	key := calleeKey{fn, arg}
	if e := s.memo[key]; e != nil {
		return e
	}
	e := &calleeEffect{}
	s.memo[key] = e
	decl, info := s.bodies(fn)
	sig := fn.Signature()
	switch {
	case decl == nil || decl.Body == nil:
		e.unknown.what = "hands it to " + fn.FullName() + ", whose body -fix has not"
	case depth > kube.MaxDepth:
		e.unknown.what = fmt.Sprintf("hands it on more than %d calls deep, at %s", kube.MaxDepth, fn.Name())
	case arg >= 0 && sig.Variadic() && arg >= sig.Params().Len()-1:
		e.unknown.what = "hands it to " + fn.Name() + "'s variadic parameter"
	default:
		// The declaration's own parameter objects (fn may be another
		// check's: the test variant's).
		s.walk(e, declParam(decl.Recv, decl.Type, info, arg), decl.Body, info, depth)
	}
	return e
}

// walk follows p, a parameter, through body: what it does to the object.
func (s *calleeSums) walk(e *calleeEffect, p *types.Var, body *ast.BlockStmt, info *types.Info, depth int) {
	if p == nil {
		return
	}
	w := &calleeWalk{s: s, info: info, depth: depth, e: e, whole: map[*types.Var]bool{p: true}, status: map[*types.Var]bool{}}
	for n := range ast.Preorder(body) {
		w.node(n)
		if e.unknown.what != "" && e.status.what != "" {
			break
		}
	}
	if e.status.what != "" {
		e.unknown = trail{} // a change shown blocks as surely as one not shown
	}
}

// literal summarises a function literal called where it is written for
// its argument arg.
func (s *calleeSums) literal(lit *ast.FuncLit, info *types.Info, arg, depth int) *calleeEffect {
	e := &calleeEffect{}
	if sig, _ := info.TypeOf(lit).(*types.Signature); sig != nil && sig.Variadic() && arg >= sig.Params().Len()-1 {
		e.unknown.what = "hands it to a function literal's variadic parameter"
		return e
	}
	s.walk(e, declParam(nil, lit.Type, info, arg), lit.Body, info, depth)
	return e
}

// declParam is the parameter arg (-1: the receiver) of a function of
// type ft as its package's types define it.
func declParam(recv *ast.FieldList, ft *ast.FuncType, info *types.Info, arg int) *types.Var {
	list := ft.Params
	if arg < 0 {
		list, arg = recv, 0
	}
	if list == nil {
		return nil
	}
	i := 0
	for _, f := range list.List {
		if len(f.Names) == 0 {
			if i == arg {
				return nil // unnamed: no uses
			}
			i++
			continue
		}
		for _, id := range f.Names {
			if i == arg {
				v, _ := info.Defs[id].(*types.Var)
				return v
			}
			i++
		}
	}
	return nil
}

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
}

// held says whether e is rooted at a variable holding the object, and
// whether through its status.
func (w *calleeWalk) held(e ast.Expr) (rooted, status bool) {
	v := rootVar(w.info, e)
	switch {
	case v == nil:
		return false, false
	case w.status[v]:
		return true, true
	case w.whole[v]:
		return true, throughStatus(e)
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
			if len(n.Lhs) == len(n.Rhs) {
				w.flow(n, l, n.Rhs[i])
			}
		}
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
			if rooted, status := w.held(el); rooted && (status || itself(el)) && w.reference(el) && w.e.unknown.what == "" {
				w.e.unknown.what = "keeps " + exprText(w.s.fset, el) + " in a value at " + w.at(el) + ", which -fix does not follow"
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
	rooted, status := w.held(r)
	if !rooted || !w.reference(r) || !(status || itself(r)) {
		return
	}
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
	if w.e.unknown.what == "" {
		w.e.unknown.what = "keeps " + exprText(w.s.fset, r) + " in " + exprText(w.s.fset, l) + " at " + w.at(n) + ", which -fix does not follow"
	}
}

// itself reports whether e is the object, not a part of it: x, *x, &x.
// A reference into its spec or metadata, kept or handed on, changes no
// status.
func itself(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	if s, ok := ast.Unparen(e).(*ast.StarExpr); ok {
		e = s.X
	}
	return isBare(e)
}

// reference reports whether e's value shares memory with the object.
func (w *calleeWalk) reference(e ast.Expr) bool {
	if isAddr(ast.Unparen(e)) {
		return true
	}
	switch t := w.info.TypeOf(e); {
	case t == nil:
		return true
	default:
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Struct, *types.Chan:
			return true
		}
	}
	return false
}

// call follows the object into a call: a method of it, or an argument.
func (w *calleeWalk) call(call *ast.CallExpr) {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := w.info.Uses[id].(*types.Builtin); builtin {
			switch id.Name {
			case "append", "copy", "clear", "delete":
				if len(call.Args) > 0 {
					if rooted, status := w.held(call.Args[0]); rooted {
						w.change(call, call.Args[0], status)
					}
				}
			}
			return
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if rooted, status := w.held(sel.X); rooted && w.info.Selections[sel] != nil {
			w.into(call, sel.X, -1, status)
		}
	}
	for i, a := range call.Args {
		if rooted, status := w.held(a); rooted && w.reference(a) && (status || itself(a)) {
			w.into(call, a, i, status)
		}
	}
}

// into summarises the callee of call for the object (or a part of its
// status) it is given as arg.
func (w *calleeWalk) into(call *ast.CallExpr, a ast.Expr, arg int, part bool) {
	fn := typeutil.StaticCallee(w.info, call)
	name := exprText(w.s.fset, call.Fun)
	var e *calleeEffect
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && arg >= 0 {
		e, name = w.s.literal(lit, w.info, arg, w.depth+1), "a function literal"
	}
	if e == nil && fn == nil {
		if verb := clientVerb(w.info, call); verb != "" {
			w.e.status.what = "hands " + exprText(w.s.fset, a) + " to its client's " + verb + " at " + w.at(call) + ", which decodes the server's answer into it"
		} else if w.e.unknown.what == "" {
			w.e.unknown.what = "hands " + exprText(w.s.fset, a) + " to " + dynamicCall(w.info, call) + " -fix cannot follow, at " + w.at(call)
		}
		return
	}
	if e == nil {
		if decl, _ := w.s.bodies(fn); decl == nil {
			if !externalReads(fn, arg) && w.e.unknown.what == "" {
				w.e.unknown.what = "hands " + exprText(w.s.fset, a) + " to " + fn.FullName() + " at " + w.at(call) + ", outside the module"
			}
			return
		}
		e = w.s.effect(fn, arg, w.depth+1)
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

// externalReads reports whether fn, outside the module, only reads its
// argument arg (-1: its receiver): readsObject's, a logger's, a getter,
// a check or a copy by its name (readsOnlyName).
func externalReads(fn *types.Func, arg int) bool {
	if fn.Pkg() == nil {
		return false
	}
	if i, ok := readsObject[fn.Pkg().Path()][fn.Name()]; ok && (i == anyArg || i == arg) {
		return true
	}
	return loggers[fn.Pkg().Path()] || fn.Name() != "Get" && readsOnlyName(fn.Name()) // a Get decodes into it
}
