package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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
		part := arg >= 0 && arg < len(call.Args) && throughStatus(call.Args[arg])
		if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && arg >= 0 {
			e = s.literal(lit, info, arg, part, 0)
		}
		fn := typeutil.StaticCallee(info, call)
		if e == nil && fn == nil {
			if _, ok := info.TypeOf(call.Fun).(*types.Signature); !ok || clientVerb(info, call) != "" {
				return "", false // untyped (an import the command did not load), or the client's
			}
			return ", " + dynamicCall(info, call) + " -fix cannot follow: it may change it", true
		}
		testFile := false
		if e == nil {
			decl, _ := bodies(fn)
			if decl == nil {
				return "", false
			}
			e = s.effect(fn, calleeArg(info, call, arg), part, 0)
			testFile = strings.HasSuffix(fset.Position(decl.Pos()).Filename, "_test.go")
		}
		switch {
		case testFile && e.status.what == "":
			// A helper of the test files themselves (their imports of
			// the test's own packages untyped): a change its body shows
			// keeps; else its name judges it, as before.
			return "", false
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
	fn   *types.Func
	arg  int
	part bool
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

// effect summarises fn's parameter arg (-1: its receiver), given a part
// of the object's status when part (then all of it is status). A call back
// into a function being summarised adds nothing (the changes are found
// on the path that makes them).
func (s *calleeSums) effect(fn *types.Func, arg int, part bool, depth int) *calleeEffect {
	fn = fn.Origin()
	key := calleeKey{fn, arg, part}
	if e := s.memo[key]; e != nil {
		return e
	}
	e := &calleeEffect{}
	s.memo[key] = e
	if arg < 0 && strings.HasPrefix(fn.Name(), "DeepCopy") {
		// A generated copy reads its receiver ("*out = *in" copies the
		// object into another before its parts are copied again).
		return e
	}
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
		s.walk(e, declParam(decl.Recv, decl.Type, info, arg), part, decl.Type, decl.Body, info, depth)
	}
	return e
}

// walk follows p, a parameter of a function of type ft, through body:
// what it does to the object (to its status: part). The body is walked
// again while new variables come to hold it, so that a use written
// before the assignment it follows (in a loop, a literal) is seen.
func (s *calleeSums) walk(e *calleeEffect, p *types.Var, part bool, ft *ast.FuncType, body *ast.BlockStmt, info *types.Info, depth int) {
	if p == nil {
		return
	}
	w := &calleeWalk{s: s, info: info, depth: depth, e: e, whole: map[*types.Var]bool{}, status: map[*types.Var]bool{}}
	if part {
		w.status[p] = true
	} else {
		w.whole[p] = true
	}
	w.namedResults(ft)
	for held := 0; held < len(w.whole)+len(w.status) && (e.unknown.what == "" || e.status.what == ""); {
		held = len(w.whole) + len(w.status)
		for n := range ast.Preorder(body) {
			w.node(n)
			if e.unknown.what != "" && e.status.what != "" {
				break
			}
		}
	}
	if e.status.what != "" {
		e.unknown = trail{} // a change shown blocks as surely as one not shown
	}
}

// literal summarises a function literal called where it is written for
// its argument arg.
func (s *calleeSums) literal(lit *ast.FuncLit, info *types.Info, arg int, part bool, depth int) *calleeEffect {
	e := &calleeEffect{}
	if sig, _ := info.TypeOf(lit).(*types.Signature); sig != nil && sig.Variadic() && arg >= sig.Params().Len()-1 {
		e.unknown.what = "hands it to a function literal's variadic parameter"
		return e
	}
	s.walk(e, declParam(nil, lit.Type, info, arg), part, lit.Type, lit.Body, info, depth)
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
