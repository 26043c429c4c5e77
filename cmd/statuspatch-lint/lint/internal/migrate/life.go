package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/cfg"
)

// A life is one object's story in one function, read on the function's
// control-flow graph (go/cfg): which statements read it (a Get of it),
// write its status (the writes that move together become Flushes of one
// patcher, each making the response the next base), and which may change
// it. A question about a point of the function is asked of every path
// that reaches it, so writes and reads on exclusive paths (an early
// return's branch, an if's re-read) are not taken for a sequence.
type life struct {
	si    *site
	obj   *types.Var
	g     *cfg.CFG
	preds map[*cfg.Block][]*cfg.Block
	made  ast.Node   // the statement the patcher is made at, if known: the object is its base there
	via   *types.Var // the patcher's variable, when the code makes it: its Flush and Retry renew the object

	changedAt ast.Node // where freshAt last found the object changed, if it did
	// onlyMade: a Get renews the object only at made. A patcher the code
	// made, or one another write's move makes, is shared by a helper's
	// call (migrategenericlife.go) only while the object is what it
	// holds; a group's own re-reads become its Fetches (migratefetch.go),
	// so its retries (migrateretry.go) count every Get.
	onlyMade bool
	// refetched: re-Gets of the object -fix makes Fetches into the
	// patcher (liferefetch.go): each renews it as its making does.
	refetched []*ast.CallExpr
	// callee, when set, is the module's summary of what a call does to
	// the argument it is given: ok when at most the status changes
	// (checkCallee), else why not (lifeaddr.go).
	callee func(call *ast.CallExpr, arg ast.Expr) (ok bool, why string)
}

// An event is what one node of the graph does to the object.
type event int

const (
	untouched event = iota // not used, or only read
	renewed                // read with Get or its status written: the object is what the server holds
	changed                // may be changed (assigned, its address taken, handed on)
)

// newLife builds the life of obj in the function holding si's write
// (the function around a deferred literal: enclosingFunc).
func newLife(si *site, obj *types.Var) *life {
	var body *ast.BlockStmt
	switch fn := si.enclosingFunc().(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	if body == nil {
		return nil
	}
	l := &life{si: si, obj: obj, preds: map[*cfg.Block][]*cfg.Block{}}
	l.g = cfg.New(body, mayReturn(si.pass))
	for _, b := range l.g.Blocks {
		if !b.Live {
			continue // after a return: no path runs it
		}
		for _, s := range b.Succs {
			l.preds[s] = append(l.preds[s], b)
		}
	}
	return l
}

// freshAt reports whether, on every path that reaches the statement s,
// the object was last read with Get or had its status written, and
// nothing may have changed it since: a base taken at s is what a patcher
// made at that read (and flushed at those writes) holds there.
func (l *life) freshAt(s ast.Node) bool {
	return l.freshAtBy(s, l.event)
}

// freshAtBy is freshAt with each node's event told by ev.
func (l *life) freshAtBy(s ast.Node, ev func(ast.Node) event) bool {
	for _, b := range l.g.Blocks {
		for i, n := range b.Nodes {
			if n == s {
				return l.freshBefore(b, i, ev, map[*cfg.Block]bool{})
			}
		}
	}
	return false
}

// reaches reports whether a path of the function's graph runs from the
// node holding from on to the node holding to: a change at from can be
// what the object holds at to. A position the graph does not show (dead
// code) is taken to reach.
func (l *life) reaches(from, to token.Pos) bool {
	fb, fi := l.nodeAt(from)
	tb, ti := l.nodeAt(to)
	if fb == nil || tb == nil || fb == tb && fi < ti {
		return true
	}
	seen := map[*cfg.Block]bool{}
	next := slices.Clone(fb.Succs)
	for len(next) > 0 {
		b := next[len(next)-1]
		next = next[:len(next)-1]
		if b == tb {
			return true
		}
		if !seen[b] {
			seen[b] = true
			next = append(next, b.Succs...)
		}
	}
	return false
}

// nodeAt is the innermost node of a live block holding pos, and that
// block; nil when none does.
func (l *life) nodeAt(pos token.Pos) (*cfg.Block, int) {
	var at *cfg.Block
	idx, span := -1, token.Pos(0)
	for _, b := range l.g.Blocks {
		if !b.Live {
			continue
		}
		for i, n := range b.Nodes {
			if n.Pos() <= pos && pos < n.End() && (at == nil || n.End()-n.Pos() < span) {
				at, idx, span = b, i, n.End()-n.Pos()
			}
		}
	}
	return at, idx
}

// freshBefore is freshAt for the node i of b, on the paths that end
// there, each node's event told by ev.
func (l *life) freshBefore(b *cfg.Block, i int, ev func(ast.Node) event, seen map[*cfg.Block]bool) bool {
	for j := i - 1; j >= 0; j-- {
		switch ev(b.Nodes[j]) {
		case renewed:
			return true
		case changed:
			l.changedAt = b.Nodes[j]
			return false
		}
	}
	if b.Index == 0 || len(l.preds[b]) == 0 {
		return false // the function's entry: the object was not read here
	}
	for _, p := range l.preds[b] {
		if seen[p] {
			continue // a loop back: the paths into it are checked
		}
		seen[p] = true
		if !l.freshBefore(p, len(p.Nodes), ev, seen) {
			return false
		}
	}
	return true
}

// event says what node n does to the object. Anything it cannot show is
// only a read counts as a change.
func (l *life) event(n ast.Node) event {
	if l.made != nil && n == l.made {
		return renewed
	}
	if l.rangedInto(n) {
		return changed
	}
	ev := untouched
	ast.Inspect(n, func(n ast.Node) bool {
		if ev == changed {
			return false
		}
		switch n := n.(type) {
		case *ast.DeferStmt:
			// A deferred literal runs as the function returns, not here:
			// its own uses are checked against the rest of the function
			// (checkMutations); its arguments are evaluated here.
			if _, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				for _, a := range n.Call.Args {
					ast.Inspect(a, func(x ast.Node) bool {
						if e, ok := x.(ast.Expr); ok && l.rooted(e) && l.reference(e) {
							ev = changed
						}
						return ev != changed
					})
				}
				return false
			}
		case *ast.FuncLit:
			// Captured by a literal it may change when called.
			if l.mentions(n.Body) {
				ev = changed
			}
			return false
		case *ast.CallExpr:
			return l.callEvent(n, &ev)
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				if l.rooted(e) || l.isVia(e) {
					ev = changed // the patcher's variable reassigned: it holds another object
				}
			}
			for _, e := range n.Rhs {
				if l.rooted(e) && l.reference(e) {
					ev = changed // an alias into it
				}
			}
		case *ast.ValueSpec:
			for _, e := range n.Values {
				if l.rooted(e) && l.reference(e) {
					ev = changed
				}
			}
		case *ast.IncDecStmt:
			if l.rooted(n.X) {
				ev = changed
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && (l.rooted(n.X) || l.isVia(n.X)) {
				ev = changed
			}
		case *ast.RangeStmt:
			if l.rooted(n.X) {
				ev = changed
			}
		}
		return true
	})
	return ev
}

// callEvent sets ev for a call: a Get of the object or a status write of
// it renews it; the object or a reference into it handed to any other
// call (but DeepCopy and builtins that read) may change it.
func (l *life) callEvent(call *ast.CallExpr, ev *event) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && l.via != nil && (sel.Sel.Name == "Flush" || sel.Sel.Name == "Retry") && !l.viaReassigned() {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && l.si.pass.TypesInfo.Uses[id] == l.via {
			*ev = l.writeEvent(call, sel.Sel.Name == "Retry") // lifestored.go
			return false
		}
	}
	switch {
	case len(call.Args) >= 3 && l.isGet(call):
		// A Get renews what a patcher made at it holds. With onlyMade, a
		// later Get (of any key) into the object, which -fix does not make
		// that patcher's Fetch, leaves its base behind: the object is no
		// longer what the patcher holds.
		*ev = renewed
		if l.onlyMade && l.made != nil && (call.Pos() < l.made.Pos() || call.End() > l.made.End()) && !refetchedGet(l, call) {
			*ev = changed
		}
		return false
	case len(call.Args) >= 2 && isStatusWrite(call) && l.is(call.Args[1]):
		*ev = l.writeEvent(call, false)
		return false
	}
	if fn := kube.CalledFunc(l.si.pass, call); fn != nil {
		for i, a := range call.Args {
			if l.is(a) && l.si.helperWrite(fn, i) {
				*ev = renewed // a helper's write, through the patcher (migrateexported.go)
				return false
			}
		}
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := l.si.pass.TypesInfo.Uses[id].(*types.Builtin); builtin && id.Name != "append" && id.Name != "copy" && id.Name != "clear" && id.Name != "delete" {
			return true
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && l.rooted(sel.X) && sel.Sel.Name != "DeepCopy" {
		*ev = changed // a method of it
	}
	if fn := kube.CalledFunc(l.si.pass, call); fn != nil && l.readBy(call, fn) {
		// The object handed to readsObject's, which only read it (an
		// owner: controllerutil.SetControllerReference(&obj, ...)).
		for i, a := range call.Args {
			if (!l.is(a) || !readsObjectArg(fn, i)) && l.event(a) == changed {
				*ev = changed
			}
		}
		if l.event(call.Fun) == changed {
			*ev = changed
		}
		return false
	}
	for _, a := range call.Args {
		if l.rooted(a) && l.reference(a) {
			*ev = changed
		}
	}
	return true
}

// readBy reports whether call, of fn, is given the object (or &obj) as
// an argument readsObject says fn only reads.
func (l *life) readBy(call *ast.CallExpr, fn *types.Func) bool {
	for i, a := range call.Args {
		if l.is(a) && readsObjectArg(fn, i) {
			return true
		}
	}
	return false
}

// isGet reports whether call is c.Get(ctx, key, obj).
func (l *life) isGet(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Get" && l.is(call.Args[2])
}

// is reports whether e is the object's variable, or &obj of a value
// (migratevalue.go): the object's pointer.
func (l *life) is(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND && valueObj(l.obj) {
		e = ast.Unparen(u.X)
	}
	id, ok := e.(*ast.Ident)
	return ok && l.si.pass.TypesInfo.Uses[id] == l.obj
}

// rooted reports whether e is the object or a field, element or
// dereference of it (obj.Status.Conditions[0]).
func (l *life) rooted(e ast.Expr) bool {
	rooted, _ := l.chain(e)
	return rooted
}

// chain walks e down its selections, indexes and dereferences to the
// name it starts from: rooted, e is the object or a field, element or
// dereference of it; status, the walk passed the object's Status (e is
// obj.Status or in it: obj.Status.Ready, obj.Status.Conditions[0]).
func (l *life) chain(e ast.Expr) (rooted, status bool) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return l.si.pass.TypesInfo.Uses[x] == l.obj, status
		case *ast.SelectorExpr:
			status = status || x.Sel.Name == "Status" && l.is(x.X)
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return false, false
		}
	}
}

// reference reports whether e's value may reach into the object: a
// pointer, slice, map, channel, function or interface, or a struct
// holding one; a copy of a basic value cannot.
func (l *life) reference(e ast.Expr) bool {
	t := l.si.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return true
	}
	_, basic := t.Underlying().(*types.Basic)
	return !basic
}

// mentions reports whether n uses the object.
func (l *life) mentions(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && l.si.pass.TypesInfo.Uses[id] == l.obj {
			found = true
		}
		return !found
	})
	return found
}

// baseAtRead reports whether the base def (of v), taken with nothing
// changed since the object's last read or status write on every path to
// it, is the life's read: the patcher is made at the Get before it and
// shared with the writes of the same life, and def is dropped when
// nothing else uses v. The re-reads between become Fetches of that
// patcher (migraterereads.go).
func (m reads) baseAtRead(def ast.Stmt, v *types.Var) bool {
	r := &migration{site: m.site, obj: m.obj, audit: true}
	if r.reads().findGetBefore(def.Pos()); r.anchor == nil || r.get == nil {
		return false
	}
	l := newLife(&m.site, m.obj)
	if l == nil || !l.freshAtBy(def, baseWindow{l, def}.event) { // lifebaseevent.go
		return false
	}
	m.anchor, m.keep, m.get, m.getCheck = r.anchor, true, r.get, r.getCheck
	m.late, m.lateVar, m.lateFresh = def, v, true
	m.lateKeep = m.uses(v) != 1
	return true
}
