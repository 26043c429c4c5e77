package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// A patch helper (migratepatchhelper.go) kept for a reason of its own (its
// constructor given s.Widget, not a variable; an interface; a call
// assigned to nothing) still had its blind merge patch locked, unless the
// reason was another writer beside it (TwoPatchers). Its base is taken
// when the helper is made: when another write of its object runs after
// that and before the helper's Patch (a deferred Patch after the scope's
// Update, a finalizer's Update), the lock sends a resourceVersion that
// write moved, and the patch conflicts on every reconcile where both
// change. helperBaseMoved finds such a write on the way to each call of
// Patch, whatever kept the helper, and the reason then names it, ending
// TwoPatchers: the analyzer adds no lock (analyzer.go).
//
// The object is matched by its names (originalias.go): a helper made
// from s.Widget and a write of w := s.Widget, &w, a DeepCopy of it, an
// interface value of it are one object, and a callee is followed with the
// parameters its call hands the object to. A write of another object of
// the kind (read by a Get of another key, by the model: another) leaves
// the lock on; a write of an object the model cannot tell apart (a
// parameter, a List's item, an interface) is matched by its type (any
// object when either is an interface) and takes the lock off: no lock is
// a blind patch, as before -fix; a wrong lock conflicts on every
// reconcile. A Patch called through an interface the helper implements
// is one of its calls, its base taken where the helper was made.

// helperBaseMoved says which write of the helper's object runs while a
// helper made before it holds its base for a call of its Patch, naming
// the lines; "" when none does.
func helperBaseMoved(h *patchHelper) string {
	method, _ := h.pass.TypesInfo.Defs[h.method.Name].(*types.Func)
	index := slices.Index(paramVars(h.pass, h.method), h.obj)
	if method == nil || index < 0 {
		return ""
	}
	for _, cur := range append(usesIn(h.calls, method), ifacePatchUses(h, method)...) {
		p, recv := callOf(cur)
		if p == nil || recv == nil || index >= len(p.Args) {
			continue
		}
		if _, ok := ast.Unparen(recv).(*ast.CallExpr); ok {
			continue // made in the call: its base is taken there
		}
		fd, later := patchDecl(cur)
		if fd == nil || fd.Body == nil {
			continue
		}
		from, made := fd.Body.Pos(), "made before "+fd.Name.Name
		if v := madeAt(h, fd, recv); v != nil && v.Pos() > fd.Body.Pos() && v.Pos() < fd.End() {
			from, made = v.Pos(), "made at "+h.where(v.Pos())
			if lit := paramOfLit(fd, v); lit != nil {
				made = fmt.Sprintf("a parameter of the function literal at %s, made before its call", h.where(lit.Pos()))
			}
		}
		to := p.Pos()
		if later {
			to = fd.End() // deferred, or in a closure: after the rest of fd
		}
		s := &baseScan{h: h, t: h.pass.TypesInfo.TypeOf(p.Args[index]), skip: p, seen: map[string]bool{},
			root: fd, names: aliasesOf(h.pass.TypesInfo, fd, p.Args[index])}
		via, w := s.scan(fd.Body, from, to)
		if w == nil {
			continue
		}
		holds := fmt.Sprintf("while %s, %s, holds its base for %s at %s", types.ExprString(recv), made, types.ExprString(p.Fun), h.where(p.Pos()))
		if via == nil && !s.writes(w) {
			return fmt.Sprintf("its caller's %s at %s, of another package, is given a client and the object and may write it %s", types.ExprString(w.Fun), h.where(w.Pos()), holds)
		}
		if via == nil {
			return fmt.Sprintf("its caller's %s at %s writes %s", types.ExprString(w.Fun), h.where(w.Pos()), holds)
		}
		return fmt.Sprintf("%s at %s writes at %s (%s) %s", types.ExprString(via.Fun), h.where(via.Pos()), h.where(w.Pos()), types.ExprString(w.Fun), holds)
	}
	return ""
}

// patchDecl is the function declaration around cur, and whether cur is
// in a defer statement or a function literal within it (run later than
// its place says).
func patchDecl(cur inspector.Cursor) (*ast.FuncDecl, bool) {
	later := false
	for p := cur.Parent(); p.Node() != nil; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.FuncDecl:
			return n, later
		case *ast.FuncLit, *ast.DeferStmt:
			later = true
		}
	}
	return nil, false
}

// A baseScan looks for a write of the helper's object (one of names, or
// of type t, any when t or the write's object is an interface, unless the
// model shows it another) other than skip, and in the package's functions
// called on the way (each once), with the names their parameters take.
type baseScan struct {
	h      *patchHelper
	t      types.Type
	skip   *ast.CallExpr
	seen   map[string]bool     // a function, by the names and others its parameters are (seenKey)
	root   ast.Node            // the function scanned
	names  *aliases            // the object's names there, nil when none is known
	others map[*types.Var]bool // parameters handed another object
}

// scan is the first such write among the calls of n from from to to: the
// call of the function holding it (nil when it is n's own) and the write.
func (s *baseScan) scan(n ast.Node, from, to token.Pos) (*ast.CallExpr, *ast.CallExpr) {
	var via, write *ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		g, ok := n.(*ast.CallExpr)
		if write != nil || !ok {
			return write == nil
		}
		if g == s.skip || g.Pos() <= from || g.Pos() >= to {
			return g != s.skip
		}
		if s.writes(g) {
			write = g
			return false
		}
		fd := s.h.funcDecl(kube.CalledFunc(s.h.pass, g))
		if fd == nil && s.mayWrite(g) {
			write = g // another package's function given a client and the object
			return false
		}
		if fd == nil || fd.Body == nil {
			return true
		}
		in := s.into(g, fd)
		key := in.seenKey(fd) // a call given the object after one given another is scanned again
		if s.seen[key] {
			return true
		}
		s.seen[key] = true
		if _, w := in.scan(fd.Body, fd.Body.Pos(), fd.End()); w != nil {
			via, write = g, w
			return false
		}
		return true
	})
	return via, write
}

// writes reports whether g is a status write of the package (one of the
// helper's ws) or a client's Update or Patch, of an object of type t.
func (s *baseScan) writes(g *ast.CallExpr) bool {
	h := s.h
	kind := ""
	for _, w := range h.ws {
		if c, ok := h.files.Calls[w.Lparen]; ok && c == g {
			kind = w.Kind
		}
	}
	if kind == "" && s.appliesKind(g) {
		return true // a server-side apply of the kind: its configuration is not followed to the object
	}
	if kind == "" && h.clientWrite(g) != "Update" && h.clientWrite(g) != "Patch" || len(g.Args) < 2 {
		return false
	}
	if s.names != nil {
		if _, same := s.names.of(g.Args[1]); same {
			return true
		}
	}
	if s.other(g.Args[1]) {
		return false
	}
	if s.sameType(h.pass.TypesInfo.TypeOf(g.Args[1])) {
		return true
	}
	n := kube.NamedOf(s.t)
	return n != nil && kind == n.Obj().Name()
}

// appliesKind reports whether g is a client's Apply (not a status one:
// those are the package's writes) of a configuration that may be of the
// helper's kind: <Kind>ApplyConfiguration, or a type not named so.
func (s *baseScan) appliesKind(g *ast.CallExpr) bool {
	sel, ok := ast.Unparen(g.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Apply" || len(g.Args) < 2 {
		return false
	}
	fn, _ := s.h.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !s.h.isClient(sel.X) && (fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.ClientPkgPath) {
		return false
	}
	n, kind := kube.NamedOf(s.h.pass.TypesInfo.TypeOf(g.Args[1])), kube.NamedOf(s.t)
	if n == nil || kind == nil || types.IsInterface(s.t) || !strings.HasSuffix(n.Obj().Name(), "ApplyConfiguration") {
		return true
	}
	return n.Obj().Name() == kind.Obj().Name()+"ApplyConfiguration"
}

// sameType reports whether an object of type ot may be the helper's (of
// type t): one type, or either an interface.
func (s *baseScan) sameType(ot types.Type) bool {
	return s.t == nil || ot == nil || types.IsInterface(s.t) || types.IsInterface(ot) || types.Identical(ot, s.t)
}

// mayWrite reports whether g, a call of a function the package does not
// declare (not a client's method), is given a client and an object of
// type t: a finalizer helper of another package (objutil.AddFinalizer(ctx,
// r.Client, obj), which Updates it) whose write is not followed. It may
// move the resourceVersion, so the lock is not added: Unknown, not a lock
// that conflicts on every reconcile; unless its package's analysis saw it
// only read the object (cluster-api's patch.NewHelper(obj, c)).
func (s *baseScan) mayWrite(g *ast.CallExpr) bool {
	if s.h.clientWrite(g) != "" {
		return false
	}
	client, obj := false, false
	for i, a := range g.Args {
		t := s.h.pass.TypesInfo.TypeOf(a)
		switch {
		case s.h.isClient(a):
			client = true
		case s.isObject(t) && s.sameType(t) && !s.other(a):
			// The analyzer's model (Files.CallWrites, as for its own
			// lock) may know from the function's package that it only
			// reads the object.
			obj = obj || s.h.files.CallWrites == nil || s.h.files.CallWrites(g.Lparen, i) != ""
		}
	}
	return client && obj
}

// isObject reports whether t implements client.Object.
func (s *baseScan) isObject(t types.Type) bool {
	pkg := importedPkg(s.h.pass.Pkg, kube.ClientPkgPath)
	if t == nil || pkg == nil {
		return false
	}
	tn, ok := pkg.Scope().Lookup("Object").(*types.TypeName)
	if !ok {
		return false
	}
	iface, ok := tn.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}

// The names helperBaseMoved follows the patch helper's object and the
// helper itself by (originalias.go): a Patch through an interface the
// helper implements, the helper's variable behind an interface, the
// parameters a callee is handed the object or another object as.

// madeAt is the variable the helper is first held in, in fd, of those
// recv (a variable of the helper or an interface holding it) names: the
// one declared first, or nil.
func madeAt(h *patchHelper, fd *ast.FuncDecl, recv ast.Expr) *types.Var {
	v := identOf(h.pass, recv)
	if v == nil {
		return nil
	}
	first := v
	ast.Inspect(fd, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		hv, _ := h.pass.TypesInfo.Defs[id].(*types.Var)
		if hv == nil || hv.Pos() >= first.Pos() || !types.Identical(hv.Type(), types.NewPointer(h.named)) && !types.Identical(hv.Type(), h.named) {
			return true
		}
		if _, ok := newAliases(h.pass.TypesInfo, fd, hv).of(recv); ok {
			first = hv
		}
		return true
	})
	return first
}

// into is the scan of fd, called at g: its parameters handed a name of
// the object are its names there, those handed another object others.
func (s *baseScan) into(g *ast.CallExpr, fd *ast.FuncDecl) *baseScan {
	c := *s
	c.root, c.names, c.others = fd, nil, map[*types.Var]bool{}
	var seeds []any
	for i, p := range paramVars(s.h.pass, fd) {
		if p == nil || i >= len(g.Args) {
			continue
		}
		if s.names != nil {
			if _, ok := s.names.of(g.Args[i]); ok {
				seeds = append(seeds, p)
				continue
			}
		}
		if s.other(g.Args[i]) {
			c.others[p] = true
		}
	}
	if len(seeds) > 0 {
		c.names = aliasesOf(s.h.pass.TypesInfo, fd, seeds...)
	}
	return &c
}

// other reports whether e is, by the model, another object than the
// helper's: a parameter handed one, or an object read by a Get of
// another key (aliases.another).
func (s *baseScan) other(e ast.Expr) bool {
	inner := sameInner(s.h.pass.TypesInfo, e)
	if v := identOf(s.h.pass, inner); v != nil && s.others[v] {
		return true
	}
	get := func(c *ast.CallExpr) bool { return s.h.clientWrite(c) == "Get" }
	return s.names != nil && s.names.another(e, s.root, get)
}

// paramOfLit is the function literal in fd that v is a parameter of, or
// nil.
func paramOfLit(fd *ast.FuncDecl, v *types.Var) *ast.FuncLit {
	var out *ast.FuncLit
	ast.Inspect(fd, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Type.Params != nil && lit.Type.Params.Pos() <= v.Pos() && v.Pos() < lit.Type.Params.End() {
			out = lit
		}
		return out == nil
	})
	return out
}
