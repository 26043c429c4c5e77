package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// effects is what a function's body shows it changes beyond its locals
// (migrateonce.go): each a clause naming the line ("sets lastID at
// ids.go:12", "calls nextID, which sets ..."), "" for none. reads is
// what it reads that a second call may find otherwise though nothing of
// the code changed it: the clock, a value other goroutines change
// ("calls time.Since at line 20, which reads the clock").
type effects struct {
	why    string         // whatever it is given: a package variable set, a channel, what it cannot see
	recv   string         // through its receiver
	params map[int]string // through a parameter, by index
	reads  string         // the clock, an atomic value: a guard checked again may answer otherwise
}

// readerPackages are packages outside the module whose methods only
// read what they are given and their receiver (a compiled regexp, a
// time, a URL, a context's Done or Err), as are a Kubernetes package's
// and logr's (a log line an attempt repeats, as retry.RetryOnConflict's
// closure repeated it).
var readerPackages = map[string]bool{"regexp": true, "time": true, "net/url": true, "net/netip": true, "context": true}

// readerTypes are types of the standard library whose methods, paired
// in one body, leave nothing changed: a mutex.
var readerTypes = map[string]bool{"sync.Mutex": true, "sync.RWMutex": true}

// readerOr is "" when f is of a reader package or type, or the error
// interface's Error (a message read: a deferred condition's from the
// named error, issue 80's Ship), else why.
func readerOr(f *types.Func, why string) string {
	if f.Pkg() == nil && f.Name() == "Error" {
		return ""
	}
	if f.Pkg() == nil || eventRecorder(f) {
		return why // an event is recorded again on each attempt
	}
	path := f.Pkg().Path()
	if readerPackages[path] || strings.Contains(path, "k8s.io/") || strings.HasPrefix(path, "github.com/go-logr/") {
		return ""
	}
	if recv := f.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && readerTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()] {
			return ""
		}
	}
	return why
}

// effectsOf is f's effects: from its body when the package has it, else
// from the table (unseen: a pointer method changes its receiver; a
// function of another package of the module may read the clock).
func (s *onceSpan) effectsOf(f *types.Func) *effects {
	f = f.Origin()
	if e, ok := s.fx[f]; ok {
		return e // known, or being found: a cycle adds nothing
	}
	if s.fx == nil {
		s.fx = map[*types.Func]*effects{}
	}
	e := &effects{params: map[int]string{}}
	s.fx[f] = e
	if readsClock(f) {
		e.reads = "reads the clock"
		return e
	}
	var fd *ast.FuncDecl
	if f.Pkg() == s.si.pass.Pkg {
		fd = s.si.funcDecl(f)
	}
	if fd == nil || fd.Body == nil {
		path := "an unknown package"
		if f.Pkg() != nil {
			path = f.Pkg().Path()
		}
		if f.Pkg() != nil && f.Pkg() != s.si.pass.Pkg && !outsideModule(s.si.pass, f) && readerOr(f, "x") != "" {
			// No fact carries a summary across the module's packages.
			e.reads = "is of " + path + ", whose body is not seen here, and may read the clock or a value other goroutines change"
		}
		r := recvType(f)
		row := pkgEffect(path) // the effects table (migrateeffects.go)
		switch {
		case atomicLoad(f):
			e.reads = "reads a value other goroutines change"
		case row != nil && r == nil:
			e.why = "is of " + path + ", which " + row.what
		case row != nil && isPointer(r):
			e.recv = "is of " + path + ", which " + cmp.Or(row.recv, row.what)
		case row != nil, readerOr(f, "x") == "":
		case r != nil && isPointer(r):
			e.recv = "is a pointer method of " + path + ", whose body is not seen"
		}
		return e
	}
	if c, ok := s.si.cursor(fd); ok {
		s.bodyEffects(fd, c, e)
	}
	return e
}

// bodyEffects fills e from fd's body, at c.
func (s *onceSpan) bodyEffects(fd *ast.FuncDecl, c inspector.Cursor, e *effects) {
	info := s.si.pass.TypesInfo
	params := map[*types.Var]int{}
	i := 0
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if v, ok := info.Defs[n].(*types.Var); ok {
				params[v] = i
			}
			i++
		}
	}
	var recv *types.Var
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv, _ = info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	}
	// set records that e, at pos, may be changed (through a reference
	// when shared): a package's variable, the receiver, a parameter.
	set := func(x ast.Expr, shared bool, how string) {
		v := rootVar(info, x)
		switch {
		case e.why != "" || v == nil:
		case v.Pkg() != nil && v.Parent() == v.Pkg().Scope():
			e.why = how
		case !shared && !sharedThrough(info, x):
		case v == recv && e.recv == "":
			e.recv = how
		default:
			if i, ok := params[v]; ok && e.params[i] == "" {
				e.params[i] = how
			}
		}
	}
	sets := func(x ast.Expr, pos token.Pos) string {
		return fmt.Sprintf("sets %s at %s", types.ExprString(x), s.where(pos))
	}
	for n := range c.Preorder((*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)) {
		switch x := n.Node().(type) {
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					set(l, false, sets(l, x.Pos()))
				}
			}
		case *ast.IncDecStmt:
			set(x.X, false, sets(x.X, x.Pos()))
		case *ast.SendStmt:
			e.why = cmp.Or(e.why, "sends on a channel at "+s.where(x.Pos()))
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				e.why = cmp.Or(e.why, "receives from a channel at "+s.where(x.Pos()))
			}
		case *ast.CallExpr:
			s.callEffects(x, e, set)
		}
	}
}

// callEffects records in e, through set, what the call x in a body
// changes: what its callee's effects change of what it is given.
func (s *onceSpan) callEffects(x *ast.CallExpr, e *effects, set func(ast.Expr, bool, string)) {
	info := s.si.pass.TypesInfo
	name := types.ExprString(x.Fun)
	switch g := typeutil.Callee(info, x).(type) {
	case *types.Builtin:
		if (g.Name() == "delete" || g.Name() == "clear" || g.Name() == "copy") && len(x.Args) > 0 {
			set(x.Args[0], true, fmt.Sprintf("calls %s at %s", name, s.where(x.Pos())))
		}
	case *types.Func:
		sub := &effects{}
		if r := recvType(g); r == nil || !types.IsInterface(r) || readsClock(g) {
			sub = s.effectsOf(g)
		} else if w := readerOr(g, "x"); w != "" {
			sub.recv = "is an interface's method, whose body is not seen"
		}
		calls := fmt.Sprintf("calls %s at %s, which ", name, s.where(x.Pos()))
		if sub.why != "" {
			e.why = cmp.Or(e.why, calls+sub.why)
		}
		if sub.reads != "" {
			e.reads = cmp.Or(e.reads, calls+sub.reads)
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sub.recv != "" && info.Selections[sel] != nil {
			set(sel.X, true, calls+sub.recv)
		}
		sig := g.Signature()
		for i, a := range x.Args {
			j := i
			if sig.Variadic() && j >= sig.Params().Len() {
				j = sig.Params().Len() - 1
			}
			if w := sub.params[j]; w != "" {
				set(a, true, calls+w)
			}
		}
	case *types.Var:
		set(x.Fun, true, fmt.Sprintf("calls %s at %s, a function value whose body is not seen", name, s.where(x.Pos())))
	}
}

// sharedThrough reports whether setting x changes memory others may
// hold: through a pointer, a map's or a slice's element.
func sharedThrough(info *types.Info, x ast.Expr) bool {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			if isPointer(info.TypeOf(e.X)) {
				return true
			}
			x = e.X
		case *ast.IndexExpr:
			switch info.TypeOf(e.X).Underlying().(type) {
			case *types.Map, *types.Slice, *types.Pointer:
				return true
			}
			x = e.X
		case *ast.StarExpr:
			return true
		default:
			return false
		}
	}
}

// atomicLoad reports whether f is a load of sync/atomic (LoadInt64,
// Int64.Load, Value.Load, Pointer[T].Load): it changes nothing, but reads
// a value other goroutines change.
func atomicLoad(f *types.Func) bool {
	return f.Pkg() != nil && f.Pkg().Path() == "sync/atomic" && strings.HasPrefix(f.Name(), "Load")
}

// isPointer reports whether t is a pointer.
func isPointer(t types.Type) bool {
	_, ok := t.(*types.Pointer)
	return ok
}

// recvType is f's receiver's type, nil for a function.
func recvType(f *types.Func) types.Type {
	if r := f.Signature().Recv(); r != nil {
		return r.Type()
	}
	return nil
}
