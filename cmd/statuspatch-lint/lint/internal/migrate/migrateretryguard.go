package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A guard is an if around a write and its decision whose condition reads
// the status (kubebuilder's `if obj.Status.Plan == nil { decide; write }`):
// it stays around the Retry and is checked again in mutate, when its
// condition may run there and again (guard). When it may not, the
// decision stays before a Flush, and the note says why, naming the line
// and the fact (guardWhy, decisionNote in migrateretrynote.go).

// guard returns the if whose body is the decision and the write, when
// the whole if moves into mutate (guardIf), its condition may run again
// and the object is what the patcher holds at the if (guardWhy "").
// Then the condition is decided again on a conflict too, in mutate, and
// a false one runs no Retry (the if stays).
func (r retries) guard(list []ast.Stmt, from, at int) *ast.IfStmt {
	g := guardIf(r, list, from, at)
	if g == nil || guardWhy(r, g, list[at]) != "" {
		return nil
	}
	return g
}

// guardIf returns the if whose body is the decision and the write: no
// else, no init, the body nothing but (the base, which goes) the
// decision and the write, last, in a form that handles its error alone
// (if err := write; err != nil {...}, the call alone, or a return of it,
// its other results not reading the object: they are evaluated before
// the Retry decides, kubebuilder's `return ctrl.Result{},
// r.Status().Update(ctx, obj)`).
func guardIf(r retries, list []ast.Stmt, from, at int) *ast.IfStmt {
	if at != len(list)-1 || from > 1 || from == 1 && list[0] != r.late && !itemBase(r, list[0]) {
		return nil
	}
	switch w := list[at].(type) {
	case *ast.IfStmt:
		if w.Init == nil || w.Else != nil {
			return nil
		}
	case *ast.ExprStmt:
	case *ast.ReturnStmt:
		for _, res := range w.Results {
			if res.Pos() <= r.call.Pos() && r.call.End() <= res.End() {
				if ast.Unparen(res) != r.call {
					return nil
				}
				continue
			}
			if names(r.pass.TypesInfo, res, r.obj) {
				return nil
			}
		}
	default:
		return nil
	}
	var g *ast.IfStmt
	for i, n := range r.path {
		if b, ok := n.(*ast.BlockStmt); ok && i+1 < len(r.path) && len(b.List) == len(list) && len(list) > 0 && b.List[0] == list[0] {
			g, _ = r.path[i+1].(*ast.IfStmt)
			break
		}
	}
	if g == nil || g.Init != nil || g.Else != nil {
		return nil
	}
	return g
}

// names reports whether e names v.
func names(info *types.Info, e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// guardWhy says why the guard g of write cannot move into mutate with
// its decision, naming the line and the fact: its condition cannot run
// inside Retry's function (movable), would run once more on every call
// (twiceWhy), or reads the object where it is not what the patcher
// holds; "" when it may.
func guardWhy(r retries, g *ast.IfStmt, write ast.Stmt) string {
	cond := &ast.ExprStmt{X: g.Cond}
	if !r.movable(cond, write) {
		return r.stopWhy(cond, write)
	}
	if why := twiceWhy(r, g.Cond); why != "" {
		return why
	}
	if !r.freshAt(g.Cond) && !itemGuardFresh(r, g) {
		return fmt.Sprintf("the guard's condition at %s reads %s where it is not what the patcher made at %s holds", r.where(g.Cond.Pos()), r.obj.Name(), r.where(r.anchor.Pos()))
	}
	return ""
}

// twiceWhy says why cond cannot run once outside Retry and again in its
// mutate (the guard stays around the Retry), naming the call and its
// line; "" when it calls only builtins, conversions and functions whose
// bodies, or the table of readers, show they change nothing
// (migrateoncefx.go). A call that changes its receiver (r.next()), a
// package variable or what it is given would run once more on every
// call, not only on a conflict. One that reads, at any depth of the
// package's calls, the clock or a value other goroutines change (an
// atomic load) may answer otherwise in mutate, and the decision made
// before would not be made: the reason names the chain ("calls
// r.inGrace, which calls time.Since at line 20, which reads the clock").
func twiceWhy(r retries, cond ast.Expr) string {
	if why := effectWhy(r, []ast.Node{cond}); why != "" {
		// A receive in the condition itself (if <-r.gate && ...):
		// checked again in mutate it would take a second value
		// (migrateeffects.go; reviewer R, s106).
		return fmt.Sprintf("the guard's condition at %s %s", r.where(cond.Pos()), strings.TrimPrefix(why, "it "))
	}
	info := r.pass.TypesInfo
	s := &onceSpan{si: &r.site, where: r.where}
	why := ""
	ast.Inspect(cond, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
			return true
		}
		fx := ""
		switch f := typeutil.Callee(info, c).(type) {
		case *types.Builtin:
		case *types.Func:
			rt := recvType(f)
			if rt != nil && types.IsInterface(rt) && !readsClock(f) {
				fx = readerOr(f, f.Name()+" is an interface's method, whose body is not seen")
				break
			}
			e := s.effectsOf(f)
			if e.reads != "" {
				why = fmt.Sprintf("the guard's condition at %s calls %s, which %s: checked again in Retry's function it may answer otherwise, and the decision made before would not be made", r.where(c.Pos()), types.ExprString(c.Fun), e.reads)
				return false
			}
			fx = cmp.Or(e.why, e.recv)
			for i := range f.Signature().Params().Len() {
				fx = cmp.Or(fx, e.params[i])
			}
			if fx != "" {
				fx = f.Name() + " " + fx
			}
		default:
			fx = types.ExprString(c.Fun) + " is a function value, whose body is not seen"
		}
		if fx != "" {
			why = fmt.Sprintf("the guard's condition at %s calls %s (%s): kept around Retry and checked again in its function, it would run once more on every call", r.where(c.Pos()), types.ExprString(c.Fun), fx)
		}
		return why == ""
	})
	return why
}

// clockReaders are the functions and methods, by package, that read the
// clock: a guard calling one may answer otherwise when checked again in
// Retry's function (reviewer R, s104: time.Since(r.started) < grace).
var clockReaders = map[string]map[string]bool{
	"time":                                 {"Now": true, "Since": true, "Until": true},
	"k8s.io/apimachinery/pkg/apis/meta/v1": {"Now": true, "NowMicro": true},
	"k8s.io/utils/clock":                   {"Now": true, "Since": true, "Until": true},
	"k8s.io/utils/clock/testing":           {"Now": true, "Since": true, "Until": true},
}

// readsClock reports whether f reads the clock (clockReaders): a
// package function, or for k8s.io/utils/clock a method of its clocks.
func readsClock(f *types.Func) bool {
	if f.Pkg() == nil || !clockReaders[f.Pkg().Path()][f.Name()] {
		return false
	}
	return f.Signature().Recv() == nil || strings.HasPrefix(f.Pkg().Path(), "k8s.io/utils/clock")
}
