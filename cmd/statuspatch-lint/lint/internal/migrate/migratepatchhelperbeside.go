package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A patch helper (migratepatchhelper.go) beside another writer of its
// object: the writer's own patcher would be a second patcher of the
// object, alive with the helper's, and the later Flush would conflict on
// every reconcile where the blind merge patches both succeeded. So a
// status write moved by any route (Fix asks besideHelper of each, and
// helperCallers of each caller of a helper given the object) stays when a
// patch helper is made from its object before it in its function, or in
// a function of the package that function hands the object to; and the
// helper stays when its caller writes the object's status after making
// it, itself or through such a function (alongside). Each names the
// other's line.

// TwoPatchers is what a kept write's reason says when another writer of
// its object is alive while its base is held (a patch helper, a write
// beside one, a generic helper's caller writing too): a lock on it would
// send the base's resourceVersion, which that writer may have moved, and
// conflict whenever both change, so the linter adds none (analyzer.go).
const TwoPatchers = "write both through one patcher by hand"

// A madeHelper is where a patch helper is made from an object: the
// constructor's call, and, when it is made in a function of the package
// the function asked calls, that call (via) and the function (in).
type madeHelper struct {
	ctor, via *ast.CallExpr
	in        *ast.FuncDecl
}

// text says where the helper is made, for a reason.
func (m madeHelper) text(pl *place) string {
	if m.via == nil {
		return pl.where(m.ctor.Pos())
	}
	return fmt.Sprintf("%s in %s, called at %s", pl.where(m.ctor.Pos()), m.in.Name.Name, pl.where(m.via.Pos()))
}

// helperMadeIn is the first call in fn ending before the position before,
// other than skip, of one of ctors given o, or of a function of the
// package given o that makes one from its parameter (as deep as the calls
// go, each function once); a zero madeHelper when there is none.
func helperMadeIn(c calls, ctors map[*types.Func]bool, fn ast.Node, o *types.Var, skip *ast.CallExpr, before token.Pos) madeHelper {
	return helperMadeVisit(c, ctors, fn, o, skip, before, map[*ast.FuncDecl]bool{})
}

func helperMadeVisit(c calls, ctors map[*types.Func]bool, fn ast.Node, o *types.Var, skip *ast.CallExpr, before token.Pos, seen map[*ast.FuncDecl]bool) madeHelper {
	var found madeHelper
	ast.Inspect(fn, func(n ast.Node) bool {
		g, ok := n.(*ast.CallExpr)
		if !ok || found.ctor != nil || g == skip || g.End() > before {
			return found.ctor == nil
		}
		for fd, p := range calleeParams(c, g, o) {
			switch {
			case fd == nil:
				if ctors[kube.CalledFunc(c.pass, g)] {
					found = madeHelper{ctor: g}
				}
			case !seen[fd]:
				seen[fd] = true
				if in := helperMadeVisit(c, ctors, fd.Body, p, nil, fd.End(), seen); in.ctor != nil {
					found = madeHelper{ctor: in.ctor, via: g, in: fd}
					if in.in != nil {
						found.in = in.in
					}
				}
			}
			if found.ctor != nil {
				return false
			}
		}
		return true
	})
	return found
}

// calleeParams yields, for each argument of g that passes o, the
// declaration in the package of the function g calls and its parameter
// the argument is: a nil declaration first, for g itself (a constructor
// the caller checks), then the callee's, when g calls a function or a
// method value of the package with a body.
func calleeParams(c calls, g *ast.CallExpr, o *types.Var) func(yield func(*ast.FuncDecl, *types.Var) bool) {
	return func(yield func(*ast.FuncDecl, *types.Var) bool) {
		for i, a := range g.Args {
			if !passesObj(c.pass.TypesInfo, o, a) {
				continue
			}
			if !yield(nil, o) {
				return
			}
			if sel, ok := ast.Unparen(g.Fun).(*ast.SelectorExpr); ok && c.pass.TypesInfo.Selections[sel] != nil && c.pass.TypesInfo.Selections[sel].Kind() != types.MethodVal {
				return // a method expression: its arguments start with the receiver
			}
			fd := c.funcDecl(kube.CalledFunc(c.pass, g))
			if fd == nil || fd.Body == nil || g.Ellipsis.IsValid() {
				return
			}
			if ps := paramVars(c.pass, fd); i < len(ps) && ps[i] != nil && !yield(fd, ps[i]) {
				return
			}
		}
	}
}

// calleeWrites is the first call in fn after from that hands o to a
// function of the package other than skip (the helper's own method)
// writing its parameter's status (one of ws), as deep as the calls go:
// the call and that write.
func calleeWrites(c calls, files Files, ws []*Write, fn ast.Node, o *types.Var, from token.Pos, skip *ast.FuncDecl) (*ast.CallExpr, *ast.CallExpr) {
	return calleeWritesVisit(c, files, ws, fn, o, from, map[*ast.FuncDecl]bool{skip: true})
}

func calleeWritesVisit(c calls, files Files, ws []*Write, fn ast.Node, o *types.Var, from token.Pos, seen map[*ast.FuncDecl]bool) (*ast.CallExpr, *ast.CallExpr) {
	var via, write *ast.CallExpr
	ast.Inspect(fn, func(n ast.Node) bool {
		g, ok := n.(*ast.CallExpr)
		if !ok || write != nil || g.Pos() < from && !deferredIn(fn, g) {
			return write == nil
		}
		for fd, p := range calleeParams(c, g, o) {
			if fd == nil || seen[fd] {
				continue
			}
			seen[fd] = true
			if w := paramWrite(c, files, ws, fd, p); w != nil {
				via, write = g, w
			} else if _, w := calleeWritesVisit(c, files, ws, fd.Body, p, fd.Pos(), seen); w != nil {
				via, write = g, w
			}
			if write != nil {
				return false
			}
		}
		return true
	})
	return via, write
}

// objectWrite is the first status write of ws in fn after from, not in
// skip, whose object is o: its argument, or what the write's migration
// says it writes (an apply configuration of o's, named by o.Name).
func objectWrite(pass *analysis.Pass, files Files, ws []*Write, opts Options, fn ast.Node, o *types.Var, from token.Pos, skip *ast.FuncDecl) *ast.CallExpr {
	var found *ast.CallExpr
	for _, w := range ws {
		call, ok := files.Calls[w.Lparen]
		if !ok || call.Pos() < from && !deferredIn(fn, call) || !within(call, fn) || skip != nil && within(call, skip) || found != nil && found.Pos() < call.Pos() {
			continue
		}
		if len(call.Args) > 1 && passesObj(pass.TypesInfo, o, call.Args[1]) {
			found = call
		} else if om, _, _ := prepareMigration(pass, files, opts, w); om != nil && om.obj == o {
			found = call
		}
	}
	return found
}

// paramWrite is a status write of ws in fd of its parameter p, or nil.
func paramWrite(c calls, files Files, ws []*Write, fd *ast.FuncDecl, p *types.Var) *ast.CallExpr {
	for _, w := range ws {
		call, ok := files.Calls[w.Lparen]
		if ok && within(call, fd) && len(call.Args) > 1 && passesObj(c.pass.TypesInfo, p, call.Args[1]) {
			return call
		}
	}
	return nil
}

// besideHelper says why m's status write stays beside a patch helper made
// from its object before it in its function (or in a function of the
// package it hands the object to), naming the line: the write's own
// patcher would be a second patcher of the object (and the helper stays
// for the write: alongside).
func besideHelper(m *migration, files Files, ws []*Write) string {
	if made := helperBefore(m, files, ws); made.ctor != nil {
		return fmt.Sprintf("a patch helper is made from %s at %s, before this write in its function: the write's own patcher would be a second patcher of %s, its Flush conflicting with the helper's patch ("+TwoPatchers+")", m.obj.Name(), made.text(&m.place), m.obj.Name())
	}
	return ""
}

// callerBesideHelper says why caller c of a helper writing its object
// cannot make the helper's patcher: a patch helper is made from c.obj
// before the call (besideHelper).
func callerBesideHelper(c *migration, files Files, ws []*Write) string {
	if made := helperBefore(c, files, ws); made.ctor != nil {
		return fmt.Sprintf("its caller at %s makes a patch helper from %s at %s before the call: the patcher it would make for this write would be a second patcher of %s, its Flush conflicting with the helper's patch ("+TwoPatchers+")", c.where(c.call.Pos()), c.obj.Name(), made.text(&c.place), c.obj.Name())
	}
	return ""
}

// helperBefore is the patch helper made from m.obj before m.call in its
// function declaration (its closures too, as alongside looks).
func helperBefore(m *migration, files Files, ws []*Write) madeHelper {
	if m == nil || m.obj == nil || m.call == nil {
		return madeHelper{}
	}
	fn := m.enclosingFunc()
	for _, n := range m.path {
		if d, ok := n.(*ast.FuncDecl); ok {
			fn = d
		}
	}
	before := m.call.Pos()
	if deferredIn(fn, m.call) {
		before = fn.End() // runs as fn returns: after a helper made anywhere in it
	} else if loop := loopAround(fn, m.call, m.anchor); loop != nil {
		before = loop.End() // the next turn's write runs after a helper made later in the loop
	}
	return helperMadeIn(m.calls, patchHelperCtors(m.pass, files, ws), fn, m.obj, nil, before)
}

// deferredIn reports whether n is in a defer statement of fn (its call,
// or a function literal it calls): it runs as fn returns, after what
// follows it.
func deferredIn(fn, n ast.Node) bool {
	found := false
	ast.Inspect(fn, func(x ast.Node) bool {
		if found || x == nil || n.Pos() < x.Pos() || n.End() > x.End() {
			return false
		}
		if _, ok := x.(*ast.DeferStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// loopAround is the outermost for or range statement of fn around n and
// not around anchor (any, when anchor is nil), or nil: what it holds
// after n runs before n's next turn.
func loopAround(fn, n ast.Node, anchor ast.Node) ast.Node {
	var loop ast.Node
	ast.Inspect(fn, func(x ast.Node) bool {
		if loop != nil || x == nil || n.Pos() < x.Pos() || n.End() > x.End() {
			return false
		}
		switch x.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if anchor == nil || !within(anchor, x) {
				loop = x
			}
		}
		return loop == nil
	})
	return loop
}
