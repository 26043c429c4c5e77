package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// Where a client is set is a fact of the code as it runs, not as it is
// written: a function literal sets it where it is called (ensure := func()
// {...}; ensure()), or where it is handed to a call that may call it
// (sync.Once's Do), not where it is defined; a function of the package
// sets it where it is called, to any depth (r.prepare() calling
// r.ensureStatus()). A call through a function value whose values are
// not all known (a local set again: refsfuncvalue.go; a function held
// in a field handed to a call) may set it: the write stays, naming the
// call and why. A call of another package's
// function, through an interface, or through a function held in a field
// is followed as far as the package's code shows
// (migrateclientsetunseen.go).

// setWalk finds where code may set a client: an assignment of one of the
// fields fs the client is selected through (or of its root variable), its
// address taken, or a call of code that does (above).
type setWalk struct {
	si   funcVals
	fs   []*types.Var
	root *types.Var             // the client's own variable (a helper's receiver or parameter, a package variable), or nil
	done map[ast.Node]token.Pos // a function followed: where it sets the client (NoPos: nowhere, or being followed)
	// frames is the bodies being followed, innermost last, with the
	// calls that entered them (migrateclientsetparams.go).
	frames []walkFrame
	// unknown says the first call followed whose function values are not
	// all known: "the call at line N may set it: why".
	unknown string
	// isSealed is sealed's answer, asked once a walk (nil: not yet).
	isSealed *bool
	// implsOf is impls' answer for an interface's method, once a walk.
	implsOf map[*types.Func][]*types.Func
	// alias is the local pointers to the client's fields, aliasDef the
	// addresses they are set to (migrateclientsetalias.go).
	alias    map[*types.Var]bool
	aliasDef map[ast.Node]bool
}

func newSetWalk(si *site, fs []*types.Var, root *types.Var) *setWalk {
	return &setWalk{si: funcVals{si}, fs: fs, root: root, done: map[ast.Node]token.Pos{}, implsOf: map[*types.Func][]*types.Func{}}
}

// is reports whether e names the client's root variable or selects one
// of its fields.
func (w *setWalk) is(e ast.Expr) bool {
	if throughAlias(w.si.pass.TypesInfo, w.alias, e) {
		return true
	}
	if w.root != nil && identOf(w.si.pass, e) == w.root {
		return true
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	s := w.si.pass.TypesInfo.Selections[sel]
	if !ok || s == nil {
		return false
	}
	f, _ := s.Obj().(*types.Var)
	return f != nil && slices.Contains(w.fs, f)
}

// last is the last node of root's function between from and to (not in
// a function literal below root: it counts where it is called) that may
// set the client as it runs, and where the set is: the node itself, or in
// the code it calls. NoPos twice when none does.
func (w *setWalk) last(root inspector.Cursor, from, to token.Pos) (at, set token.Pos) {
	kinds := []ast.Node{(*ast.FuncLit)(nil), (*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}
	root.Inspect(kinds, func(c inspector.Cursor) bool {
		n := c.Node()
		if _, lit := n.(*ast.FuncLit); lit && c != root || n.End() <= from || n.Pos() >= to {
			return false
		}
		if n.Pos() < from || n.End() > to {
			return true
		}
		hit := token.NoPos
		switch n := n.(type) {
		case *ast.AssignStmt:
			if slices.ContainsFunc(n.Lhs, w.is) {
				hit = n.Pos()
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && w.is(n.X) && !w.aliasDef[n] {
				hit = n.Pos()
			}
		case *ast.CallExpr:
			hit = w.callSets(n)
			if _, isGo := c.Parent().Node().(*ast.GoStmt); isGo && hit.IsValid() {
				hit = token.NoPos // done at a synchronization point the walk does not see
				w.unknownAt(n, "a go statement runs it concurrently")
			}
			if handsAlias(w.si.pass.TypesInfo, w.alias, n) {
				hit = n.Pos()
			}
		}
		if hit.IsValid() && n.Pos() >= at {
			at, set = n.Pos(), hit
		}
		return true
	})
	return at, set
}

// callSets is where the code call runs sets the client: the function it
// calls, each function value it may call (refsfuncvalue.go), and each
// function handed to it as an argument. NoPos when none does. A value
// handed to it that it cannot resolve (a function held in a field) may
// set the client: w.unknown names the call.
func (w *setWalk) callSets(call *ast.CallExpr) token.Pos {
	var vals []funcValue
	info := w.si.pass.TypesInfo
	fn := kube.CalledFunc(w.si.pass, call)
	if f, ok := typeutil.Callee(info, call).(*types.Func); fn == nil && ok {
		fn = f.Origin() // an instantiated generic function, ptr.To[bool]
	}
	followed := false
	if fn != nil {
		fd := w.si.funcDecl(fn)
		followed = fd != nil && fd.Body != nil && !w.onStack(fd)
		if !followed {
			if at := w.unseenSets(call, fn); at.IsValid() { // migrateclientsetunseen.go
				return at
			}
		}
		vals = append(vals, funcValue{fn: fn})
	} else if vs, why, ok := w.valueOf(call.Fun); ok { // migrateclientsetparams.go
		vals = append(vals, vs...)
		if why != "" {
			w.unknownAt(call, why)
		}
	} else if vs, why, ok := w.si.funcValues(call); ok {
		vals = append(vals, vs...)
		if why != "" {
			w.unknownAt(call, why)
		}
	} else if at := w.unseenSets(call, nil); at.IsValid() {
		return at
	}
	called := len(vals)   // vals[:called] run with call's arguments
	var handed []ast.Expr // the argument each of vals[called:] is
	for _, a := range call.Args {
		if t := w.si.pass.TypesInfo.TypeOf(a); t == nil || !isSignature(t) || followed {
			continue // a followed body judges its calls of what it is handed
		}
		vs, why, ok := w.valueOf(a)
		if !ok {
			if id, isID := ast.Unparen(a).(*ast.Ident); isID {
				if v, _ := w.si.pass.TypesInfo.Uses[id].(*types.Var); v != nil && !v.IsField() && v.Parent() != w.si.pass.Pkg.Scope() {
					if x, why, ok := w.si.localValue(v, nil); ok && why == "" {
						a = x
					}
				}
			}
			vs, why, ok = w.si.valuesOf(a, nil)
		}
		vals = append(vals, vs...)
		for range vs {
			handed = append(handed, a)
		}
		if !fnOf(info, a) {
			if !ok && why == "" {
				why = fmt.Sprintf("it is handed %s, a function value -fix does not follow", types.ExprString(a))
			}
			if why != "" {
				w.unknownAt(call, why)
			}
		}
	}
	for i, v := range vals {
		var body ast.Node = v.lit
		if v.lit == nil {
			if fd := w.si.funcDecl(v.fn); fd != nil && fd.Body != nil {
				body = fd
			}
		}
		if body == nil {
			continue
		}
		entered := call
		if i >= called {
			entered = nil // handed to code that calls it with what it chooses
		}
		at := w.bodySets(body, entered)
		if at.IsValid() && i >= called && fn != nil && !runsHanded(fn) {
			// migrateclientsethanded.go: it may run later or concurrently
			w.unknownAt(call, fmt.Sprintf("it hands %s to %s, which may run it later or concurrently", types.ExprString(handed[i-called]), funcName(fn, w.si.pass.Pkg)))
			continue
		}
		if at.IsValid() {
			return at
		}
	}
	return token.NoPos
}

// bodySets is where the function fn (a declaration or a literal),
// entered by call (nil: by code whose arguments the walk does not see),
// sets the client; followed once, unless what it finds depends on call's
// arguments (walkFrame).
func (w *setWalk) bodySets(fn ast.Node, call *ast.CallExpr) token.Pos {
	if at, ok := w.done[fn]; ok {
		return at
	}
	w.done[fn] = token.NoPos
	c, ok := w.si.cursor(fn)
	if !ok {
		return token.NoPos
	}
	w.frames = append(w.frames, walkFrame{body: fn, call: call, ctx: len(w.frames)})
	_, set := w.last(c, fn.Pos(), fn.End())
	top := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	if top.bound {
		delete(w.done, fn)
	} else {
		w.done[fn] = set
	}
	return set
}

// sealed reports whether no code the walk does not see can set the
// client: it is selected through fields only (no root variable), each
// unexported, of a struct of this package, and no statement of the
// package assigns one of them, takes its address, or assigns a whole
// value of a struct holding one (kueue's clustersReconciler.localClient,
// set only where the reconciler is built: s103). Only the package's code
// can name an unexported field, so a function value whose values are not
// all known cannot set it either.
func (w *setWalk) sealed() bool {
	if w.isSealed == nil {
		sealed := w.root == nil && len(w.fs) > 0 && w.unassigned()
		w.isSealed = &sealed
	}
	return *w.isSealed
}

// unassigned is sealed's look at the package's code: its fields w.fs are
// unexported fields of the package that no statement assigns, takes the
// address of, or assigns a whole value of a struct holding.
func (w *setWalk) unassigned() bool {
	holders := map[types.Type]bool{}
	for _, f := range w.fs {
		if f.Exported() || f.Pkg() != w.si.pass.Pkg {
			return false
		}
	}
	for _, file := range w.si.pass.Files {
		for n := range ast.Preorder(file) {
			if st, ok := n.(*ast.TypeSpec); ok {
				if t, ok := w.si.pass.TypesInfo.Defs[st.Name].(*types.TypeName); ok {
					if s, ok := t.Type().Underlying().(*types.Struct); ok && structHolds(s, w.fs) {
						holders[t.Type()] = true
					}
				}
			}
		}
	}
	for _, file := range w.si.pass.Files {
		for n := range ast.Preorder(file) {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if w.is(l) {
						return false
					}
					if t := w.si.pass.TypesInfo.TypeOf(l); t != nil && holders[t] {
						if id, ok := l.(*ast.Ident); !ok || n.Tok != token.DEFINE || w.si.pass.TypesInfo.Defs[id] == nil {
							return false // *p = T{...}, or a value of T assigned again
						}
					}
				}
			case *ast.IncDecStmt:
				if w.is(n.X) {
					return false
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil && n.Tok == token.ASSIGN && holders[w.si.pass.TypesInfo.TypeOf(e)] {
						return false
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && w.is(n.X) {
					return false
				}
			}
		}
	}
	return true
}

// structHolds reports whether s has one of the fields fs, itself or in a
// struct or array it holds by value (an assignment of s sets them too).
func structHolds(s *types.Struct, fs []*types.Var) bool {
	for f := range s.Fields() {
		if slices.Contains(fs, f) {
			return true
		}
		t := f.Type().Underlying()
		for {
			a, ok := t.(*types.Array)
			if !ok {
				break
			}
			t = a.Elem().Underlying()
		}
		if in, ok := t.(*types.Struct); ok && in != s && structHolds(in, fs) {
			return true
		}
	}
	return false
}
