package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A decision moved into Retry may call a function of the package given
// ctx (r.compute(ctx, obj), desired := r.buildStatus(ctx, obj)): each
// attempt calls it again. Its body decides (issue 80). One that only
// reads runs again as retry.RetryOnConflict's closure ran it: ctx handed
// to a logger (log.FromContext), a client's Get or List into a local it
// made (ownLocal: &T{}, new(T), var x T, never assigned from anything
// else). One that writes to the cluster (Create, Update, Patch,
// Delete, DeleteAllOf, Apply, its status's too), records an event, reads
// the cluster into what it is given, starts a goroutine, or has a side
// effect by the evidence rule (migrateoncefx.go: a package variable, its
// receiver's state) keeps the decision out of Retry, naming its line. A
// function whose body is not seen (another package's, an interface's
// method, a function value) keeps it too.

// clientWrites are the controller-runtime client's methods that write
// to the cluster (of Writer and SubResourceWriter alike).
var clientWrites = map[string]bool{"Create": true, "Update": true, "Patch": true, "Delete": true, "DeleteAllOf": true, "Apply": true}

// clientReads are the client's reads, by the argument they fill.
var clientReads = map[string]int{"Get": 2, "List": 1}

// contextReaders are functions outside the package given a context that
// only read it: the loggers it carries, and the context package's
// derived contexts.
var contextReaders = map[string]bool{
	"sigs.k8s.io/controller-runtime/pkg/log.FromContext": true, "sigs.k8s.io/controller-runtime.LoggerFrom": true,
	"github.com/go-logr/logr.FromContext": true, "github.com/go-logr/logr.FromContextOrDiscard": true,
	"k8s.io/klog/v2.FromContext": true,
}

// contextReader reports whether f, given a context, only reads it.
func contextReader(f *types.Func) bool {
	if f.Pkg() == nil || recvType(f) != nil {
		return false
	}
	return f.Pkg().Path() == "context" || contextReaders[f.Pkg().Path()+"."+f.Name()]
}

// contextWhy says why the call c, given a context, cannot run again in
// Retry's mutate for a decision from from to to; "" when it is not
// given one, or its callee's body only reads.
func (r retries) contextWhy(c *ast.CallExpr, from, to token.Pos) string {
	if !takesContext(r.pass.TypesInfo, c) {
		return ""
	}
	unseen := fmt.Sprintf("the call at %s takes a context (a call to the cluster, which a retry would repeat)", r.where(c.Pos()))
	f, ok := typeutil.Callee(r.pass.TypesInfo, c).(*types.Func)
	if !ok || recvType(f) != nil && types.IsInterface(recvType(f)) {
		return unseen
	}
	if contextReader(f) {
		return ""
	}
	call := fmt.Sprintf("the call %s at %s takes a context, and %s", types.ExprString(c.Fun), r.where(c.Pos()), f.Name())
	if f.Pkg() != r.pass.Pkg {
		path := "an unknown package"
		if f.Pkg() != nil {
			path = f.Pkg().Path()
		}
		return fmt.Sprintf("%s is of %s, whose body is not seen here (a call to the cluster, which a retry would repeat)", call, path)
	}
	fd := r.funcDecl(f.Origin())
	if fd == nil || fd.Body == nil {
		return unseen
	}
	s := &onceSpan{si: &r.site, where: r.where, fn: r.enclosingFunc(), from: from, to: to, held: []*types.Var{r.obj, r.copyOf}}
	if w := s.clusterEffect(fd, map[*types.Func]bool{f.Origin(): true}); w != "" {
		return fmt.Sprintf("%s %s, which a retry would repeat", call, w)
	}
	if fx := s.sideEffect(c); fx != "" {
		return fmt.Sprintf("the call %s at %s takes a context, and %s, which a retry would repeat", types.ExprString(c.Fun), r.where(c.Pos()), fx)
	}
	if e := s.effectsOf(f); e.recv != "" {
		// Its receiver (the reconciler) outlives the attempt.
		return fmt.Sprintf("%s %s, which a retry would repeat", call, e.recv)
	}
	return ""
}

// takesContext reports whether c is given a context.Context.
func takesContext(info *types.Info, c *ast.CallExpr) bool {
	for _, a := range c.Args {
		if t := info.TypeOf(a); t != nil && types.TypeString(t, nil) == "context.Context" {
			return true
		}
	}
	return false
}

// clusterEffect says what fd's body does to the cluster, or beyond its
// own locals through the client or a goroutine, that a retry would
// repeat ("calls r.Create at line 78, a write to the cluster"),
// following the package's functions it calls; "" when nothing. A
// function in seen adds nothing (a recursion).
func (s *onceSpan) clusterEffect(fd *ast.FuncDecl, seen map[*types.Func]bool) string {
	body, ok := s.si.cursor(fd.Body)
	if !ok {
		return "is not in the package's syntax"
	}
	info := s.si.pass.TypesInfo
	for n := range body.Preorder((*ast.CallExpr)(nil), (*ast.GoStmt)(nil)) {
		c, ok := n.Node().(*ast.CallExpr)
		if !ok {
			return "starts a goroutine at " + s.where(n.Node().Pos())
		}
		calls := fmt.Sprintf("calls %s at %s", types.ExprString(c.Fun), s.where(c.Pos()))
		unseen := calls + ", given a context, whose body is not seen here"
		g, ok := typeutil.Callee(info, c).(*types.Func)
		if !ok {
			if takesContext(info, c) {
				return unseen // a function value
			}
			continue // a builtin, a conversion; a function value is the evidence rule's
		}
		g = g.Origin()
		switch {
		case g.Pkg() != nil && g.Pkg().Path() == kube.ClientPkgPath && recvType(g) != nil:
			if clientWrites[g.Name()] {
				return calls + ", a write to the cluster"
			}
			if i, ok := clientReads[g.Name()]; ok && i < len(c.Args) {
				if !ownLocal(info, body, rootVar(info, c.Args[i])) {
					return fmt.Sprintf("%s, which reads the cluster into %s, not a local of its own", calls, types.ExprString(c.Args[i]))
				}
			}
		case eventRecorder(g):
			return calls + ", an event"
		case g.Pkg() == s.si.pass.Pkg && (recvType(g) == nil || !types.IsInterface(recvType(g))):
			if seen[g] {
				continue // a recursion: being judged
			}
			seen[g] = true
			gd := s.si.funcDecl(g)
			if gd == nil || gd.Body == nil {
				if takesContext(info, c) {
					return unseen
				}
				continue
			}
			if w := s.clusterEffect(gd, seen); w != "" {
				return calls + ", which " + w
			}
		case takesContext(info, c) && !contextReader(g):
			return unseen // another package's, an interface's method
		}
	}
	return ""
}

// ownLocal reports whether v is a local the function body made: declared
// by &T{}, new(T), var v T or a composite literal, and never assigned
// from anything else (cur := w, cur := r.cache[k], cur = w), so that a
// read into it fills nothing that outlives the call.
func ownLocal(info *types.Info, body inspector.Cursor, v *types.Var) bool {
	if v == nil || v.Pos() < body.Node().Pos() || v.Pos() >= body.Node().End() {
		return false
	}
	made := false
	for n := range body.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := n.Node().(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); !ok || info.ObjectOf(id) != v {
					continue
				}
				if len(n.Lhs) != len(n.Rhs) {
					return false
				}
				if isNew, _ := newValue(info, n.Rhs[i]); !isNew {
					return false
				}
				made = made || info.Defs[l.(*ast.Ident)] == v
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] != v {
					continue
				}
				made = true
				if len(n.Values) == 0 {
					continue // var v T
				}
				if len(n.Values) != len(n.Names) {
					return false
				}
				if isNew, _ := newValue(info, n.Values[i]); !isNew {
					return false
				}
			}
		}
	}
	return made // else declared by a range, a type switch: not made here
}

// newValue reports whether e makes a new object, not an alias of one
// read elsewhere: &T{...}, T{...} or new(T); and whether it is empty, a
// pointer to an object with nothing in it yet: &T{} or new(T). A local
// (ownLocal) may be made with anything: a read into it fills nothing
// that outlives the call. A scope's field (scopeCaller) must be empty:
// the field is the only holder of the pointer, and a literal's values
// (a map, a slice) would be what the field's Get merges into.
func newValue(info *types.Info, e ast.Expr) (made, empty bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true, false
	case *ast.UnaryExpr:
		lit, ok := ast.Unparen(e.X).(*ast.CompositeLit)
		made := e.Op == token.AND && ok
		return made, made && len(lit.Elts) == 0
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		made := ok && len(e.Args) == 1 && info.Uses[id] == types.Universe.Lookup("new")
		return made, made
	}
	return false, false
}

// eventRecorder reports whether f is a method of client-go's
// EventRecorder (or EventRecorderLogger).
func eventRecorder(f *types.Func) bool {
	if recvType(f) == nil {
		return false
	}
	n := kube.NamedOf(recvType(f))
	if n == nil || n.Obj().Pkg() == nil {
		return false
	}
	return eventRecorders[n.Obj().Pkg().Path()] && (n.Obj().Name() == "EventRecorder" || n.Obj().Name() == "EventRecorderLogger")
}
