package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The exits of a List item's decision (karpenter's
// updateBufferProvisioningStatus: `if newCondition == nil { continue }`
// before the condition is set and the buffer patched). A decision that
// leaves before the write, where the write is the last thing its loop or
// function does, skips nothing but the write: in Retry's mutate that
// exit is mutate's own `return nil`, after which Retry sends nothing
// (nothing changed) and returns nil, as the handwritten code wrote
// nothing. The table below says which exits are so; any other exit, a
// call taking a context, a write, keeps the decision out of Retry, and a
// List item's write then stays, naming the line (blockedWhy).

// A skipExit is an exit of the decision mutate's `return nil` stands for.
type skipExit struct {
	name string
	// is reports whether n, an exit inside the decision's statement s,
	// is of the entry: it leaves to where the write's statement would.
	is func(r retries, n ast.Node, s, write ast.Stmt) bool
	// text is what the exit becomes in mutate ("" leaves it as it is).
	text string
	// direct: also an exit of a write of the function's own object, not
	// only of a List item's or a helper's (r.item, r.exits).
	direct bool
	// returnsError: the exit becomes mutate's return of its own error
	// (the last of its results), in place of text.
	returnsError bool
}

// skipExits is the table.
var skipExits = []skipExit{
	// `continue` of the loop whose body the write's statement ends.
	{name: "continue", is: continues, text: "return nil"},
	// `return nil` of a function returning only an error, whose last
	// statement is `return <write>`: Retry's nil is that return's.
	{name: "return nil", is: returnsNil},
	// `return <zeros>, err` where the write's error is returned the
	// same way (migrateretryerr.go): mutate's `return err`, which Retry
	// returns unchanged to the write's error path.
	{name: "error return", is: returnsErr, direct: true, returnsError: true},
	// `return <values>, nil`, "nothing to do", where the write's success
	// path returns the same values: `return ctrl.Result{}, <write>`, or
	// the write's `if err := <write>; err != nil {...}` followed by that
	// return. Retry's nil reaches the same return (retdone.go).
	{name: "success return", is: returnsSuccess, text: "return nil", direct: true},
}

// exitOf is the entry n is an exit of, for a List item's decision
// (exitChanged checks, once the decision is known, that the object is
// unchanged on the way to it).
func (r retries) exitOf(n ast.Node, s, write ast.Stmt) *skipExit {
	for i := range skipExits {
		e := &skipExits[i]
		if (e.direct || r.item || r.exits) && e.is(r, n, s, write) {
			return e
		}
	}
	return nil
}

// writeSkippable reports whether the write's statement does nothing when
// the write returns nil: the call alone or assigned to _, `return <call>`, or `if err :=
// <call>; err != nil {...}` without an else.
func (r retries) writeSkippable(write ast.Stmt) bool {
	switch w := write.(type) {
	case *ast.ExprStmt:
		return ast.Unparen(w.X) == ast.Expr(r.call)
	case *ast.AssignStmt:
		blank := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "_" }
		return len(w.Rhs) == 1 && ast.Unparen(w.Rhs[0]) == ast.Expr(r.call) && !slices.ContainsFunc(w.Lhs, func(e ast.Expr) bool { return !blank(e) })
	case *ast.ReturnStmt:
		return len(w.Results) == 1 && ast.Unparen(w.Results[0]) == ast.Expr(r.call)
	case *ast.IfStmt:
		as, ok := w.Init.(*ast.AssignStmt)
		b, isBin := ast.Unparen(w.Cond).(*ast.BinaryExpr)
		return ok && as.Tok == token.DEFINE && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == ast.Expr(r.call) &&
			w.Else == nil && isBin && b.Op == token.NEQ && isNil(b.Y)
	}
	return false
}

// returnsNil: `return nil` of a function whose one result is an error
// and whose body ends in the write's `return <write>`.
func returnsNil(r retries, n ast.Node, s, write ast.Stmt) bool {
	ret, ok := n.(*ast.ReturnStmt)
	w, isRet := write.(*ast.ReturnStmt)
	if !ok || !isRet || len(ret.Results) != 1 || !isNil(ret.Results[0]) || !r.writeSkippable(write) {
		return false
	}
	var body *ast.BlockStmt
	var sig *ast.FuncType
	switch f := r.enclosingFunc().(type) {
	case *ast.FuncDecl:
		body, sig = f.Body, f.Type
	case *ast.FuncLit:
		body, sig = f.Body, f.Type
	default:
		return false
	}
	if sig.Results == nil || sig.Results.NumFields() != 1 || len(body.List) == 0 || body.List[len(body.List)-1] != ast.Stmt(w) {
		return false
	}
	t := r.pass.TypesInfo.TypeOf(sig.Results.List[0].Type)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// statusReaders are functions that only read the conditions they are
// given (apimachinery's meta, checked against v0.34's conditions.go).
var statusReaders = map[string]map[string]bool{
	"k8s.io/apimachinery/pkg/api/meta": {
		"IsStatusConditionTrue": true, "IsStatusConditionFalse": true,
		"IsStatusConditionPresentAndEqual": true, "FindStatusCondition": true,
	},
}

// exitChanged says why the decision p cannot move when the object may be
// changed before one of its exits (the handwritten code writes nothing
// there, where Retry would send the change): each use of it up to the
// exit a field read, an argument of a statusReaders function, or the
// argument of a function of the package whose body only reads it in
// turn. "" when every exit is so; else the first exit that is not, in
// source order (exitTexts is a map: its order would change the line).
func (r retries) exitChanged(p *retryPlan) string {
	exits := slices.SortedFunc(maps.Keys(r.exitTexts(p, true)), func(a, b ast.Node) int { return cmp.Compare(a.Pos(), b.Pos()) })
	for _, n := range exits {
		if !r.onlyRead(r.enclosingFunc(), r.obj, p.stmts[0].Pos(), n.Pos(), map[*types.Func]bool{}) {
			return fmt.Sprintf("%s may be changed before the %s at %s, which wrote nothing where Retry would send the change", r.obj.Name(), exitName(n), r.where(n.Pos()))
		}
	}
	return ""
}

// exitName is how a reason names the exit n.
func exitName(n ast.Node) string {
	if b, ok := n.(*ast.BranchStmt); ok {
		return b.Tok.String()
	}
	return "return"
}

// onlyRead reports whether v is only read in root between from and to.
func (r retries) onlyRead(root ast.Node, v *types.Var, from, to token.Pos, seen map[*types.Func]bool) bool {
	why := r.eachUse(root, v, from, to, func(stack []ast.Node, id *ast.Ident) string {
		top, changed := changedAt(stack, len(stack)-1)
		if changed {
			return "changed"
		}
		for i := len(stack) - 2; i >= top; i-- {
			if sel, ok := stack[i].(*ast.SelectorExpr); ok {
				if s := r.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal && !readsMethod(r.pass, s) {
					return "a method"
				}
			}
		}
		call, ok := stack[top-1].(*ast.CallExpr)
		if ok && call.Fun == stack[top] {
			return "" // a reading method called (above)
		}
		if !ok {
			if rs, ok := stack[top-1].(*ast.RangeStmt); ok && rs.X == stack[top] && rangesCopies(r.pass.TypesInfo, rs) {
				return "" // each element copied into the value, which shares nothing
			}
			switch stack[top-1].(type) {
			case *ast.AssignStmt, *ast.ValueSpec, *ast.KeyValueExpr, *ast.CompositeLit, *ast.ReturnStmt, *ast.SendStmt, *ast.RangeStmt:
				if holdsRefs(r.pass.TypesInfo.TypeOf(stack[top].(ast.Expr))) {
					return "aliased" // a reference to what may be changed through it
				}
			}
			return ""
		}
		if !holdsRefs(r.pass.TypesInfo.TypeOf(stack[top].(ast.Expr))) {
			return "" // a copy with nothing shared (append(names, obj.Name)): the callee cannot change the object through it
		}
		fn := kube.CalledFunc(r.pass, call)
		if fn != nil && fn.Pkg() != nil && statusReaders[fn.Pkg().Path()][fn.Name()] {
			return ""
		}
		if top != len(stack)-1 {
			return "handed on"
		}
		p, body := r.calleeParam(call, id, seen)
		if p == nil || !r.onlyRead(body, p, body.Pos(), body.End(), seen) {
			return "handed on"
		}
		return ""
	})
	return why == ""
}

// rangesCopies reports whether the range statement rs only reads what it
// ranges over: a slice, array, map or string whose keys and elements are
// copied into variables that share nothing (holdsRefs), or into none.
func rangesCopies(info *types.Info, rs *ast.RangeStmt) bool {
	t := info.TypeOf(rs.X)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if _, isArray := p.Elem().Underlying().(*types.Array); !isArray {
			return false
		}
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return false
		}
	default:
		return false
	}
	for _, e := range []ast.Expr{rs.Key, rs.Value} {
		if e != nil && !isBlank(e) && holdsRefs(info.TypeOf(e)) {
			return false
		}
	}
	return true
}

// exitTexts is each exit of the decision p with what it becomes in
// mutate; all also lists those that stay as they are.
func (r retries) exitTexts(p *retryPlan, all bool) map[ast.Node]string {
	out := map[ast.Node]string{}
	for _, s := range p.stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt, *ast.ReturnStmt:
				e := r.exitOf(n, s, p.write)
				switch {
				case e == nil:
				case e.returnsError:
					ret := n.(*ast.ReturnStmt)
					out[n] = "return " + r.text().source(ret.Results[len(ret.Results)-1])
				case all || e.text != "":
					out[n] = e.text
				}
			}
			return true
		})
	}
	return out
}

// blockedWhy says, for a List item whose decision cannot move into
// Retry, which statement before the write keeps it out, and why
// (exitWhy: an exit after a change, exitChanged's).
func (r retries) blockedWhy(exitWhy string) string {
	if exitWhy != "" {
		return "; its decision cannot move into Retry: " + exitWhy
	}
	write, l, i := writeList(r)
	for j := i - 1; j >= 0; j-- {
		s := l[j]
		why := r.stopWhy(s, write)
		switch {
		case why == "":
			continue
		case s == r.anchor || s == r.late || s == r.getCheck || s == r.get:
			return ""
		}
		return "; its decision cannot move into Retry: " + why
	}
	return ""
}

// isError reports whether t is the error interface.
func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}
