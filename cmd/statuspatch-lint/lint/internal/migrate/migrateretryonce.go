package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
)

// A decision moved into Retry that calls something handing out a value
// (issue 80: tokens.Add(1), a name from a package's generator) would call
// it again on each attempt: a second token after a conflict. The call is
// made once: a sync.OnceValue declared before the Retry, called in the
// call's place, runs it on the first attempt that reaches it and gives
// the same value to the later ones; a call whose result is unused (a
// metric's Inc, a note) is a sync.OnceFunc, run by the first attempt
// that reaches it, as the handwritten decision ran it once before its
// write. What cannot be so made once (called in a loop or a literal,
// given the object or a local of the decision, of a type the file cannot
// name) keeps the write, naming the line and the call: a plain Flush
// would be refused under a manager as the write was, and the next
// reconcile decide again.

// A onceCall is a call of the decision made once across Retry's attempts.
type onceCall struct {
	call *ast.CallExpr
	name string // the sync.OnceValue's (or OnceFunc's) variable
	typ  string // its result's type, as the file names it; "" for a call whose result is unused: a sync.OnceFunc
}

// onceCalls finds the decision's calls of a method of a variable
// declared outside the function fn (a package's counter), and says why
// one cannot be made once ("" when all can).
func onceCalls(r retries, fn ast.Node, nodes []ast.Node) ([]onceCall, string) {
	var calls []onceCall
	why := ""
	taken := map[string]bool{}
	from, to := token.NoPos, token.NoPos
	for _, n := range nodes {
		if !from.IsValid() || n.Pos() < from {
			from = n.Pos()
		}
		to = max(to, n.End())
	}
	for _, n := range nodes {
		var stack []ast.Node
		ast.Inspect(n, func(x ast.Node) bool {
			if x == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			stack = append(stack, x)
			if why != "" {
				return true
			}
			call, ok := x.(*ast.CallExpr)
			if !ok || !handsOut(r, fn, call) {
				return true
			}
			at := fmt.Sprintf("the call %s at %s", types.ExprString(call.Fun), r.where(call.Pos()))
			if w := onceWhy(r, stack, call, from, to); w != "" {
				why = at + " would run again on each attempt, and " + w
				return true
			}
			typ, w := "", ""
			if _, stmt := stack[len(stack)-2].(*ast.ExprStmt); !stmt {
				typ, w = onceType(r, call)
			}
			if w != "" {
				why = at + " would run again on each attempt, and " + w
				return true
			}
			calls = append(calls, onceCall{call: call, name: onceName(r, call, taken), typ: typ})
			return true
		})
	}
	return calls, why
}

// handsOut reports whether call is a method of a variable declared
// outside fn, the object aside: a side effect a decision run again repeats.
func handsOut(r retries, fn ast.Node, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := r.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return false
	}
	if m, ok := s.Obj().(*types.Func); ok && readsOnly(m) {
		return false
	}
	v := rootVar(r, sel.X)
	if v == nil || v == r.obj || v == r.copyOf {
		return false
	}
	if v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return true
	}
	return fieldPointerMethod(r, fn, sel, v)
}

// readerPackages hold types whose methods only read what they are given
// and their receiver (a compiled regexp, a time, a URL): a call run again
// by a Retry attempt changes nothing, so it is neither made once nor a
// reason to keep the write.
var readerPackages = map[string]bool{"regexp": true, "time": true, "net/url": true, "net/netip": true}

// readsOnly reports whether m is a method of readerPackages, of a
// Kubernetes package or of logr (a log line an attempt repeats, as
// retry.RetryOnConflict's closure repeated it).
func readsOnly(m *types.Func) bool {
	if m.Pkg() == nil {
		return false
	}
	path := m.Pkg().Path()
	return readerPackages[path] || strings.Contains(path, "k8s.io/") || strings.HasPrefix(path, "github.com/go-logr/")
}

// fieldPointerMethod reports whether sel is a pointer method, of no
// Kubernetes package, of a field of fn's receiver or of a parameter
// (r.counter.Add(1), c.seq.Next()): like a package's counter, it is
// outside the decision and a call run again changes it again. A client's
// or recorder's method, a value method (a logger's) are not.
func fieldPointerMethod(r retries, fn ast.Node, sel *ast.SelectorExpr, v *types.Var) bool {
	var ft *ast.FuncType
	recv := false
	switch f := fn.(type) {
	case *ast.FuncDecl:
		ft = f.Type
		recv = f.Recv != nil && v.Pos() >= f.Recv.Pos() && v.Pos() < f.Recv.End()
	case *ast.FuncLit:
		ft = f.Type
	}
	if _, id := ast.Unparen(sel.X).(*ast.Ident); id && recv {
		return false // the reconciler's own method (r.Get, r.next)
	}
	inSig := recv || (ft != nil && v.Pos() >= ft.Pos() && v.Pos() < ft.End())
	m, ok := r.pass.TypesInfo.Selections[sel].Obj().(*types.Func)
	if !inSig || !ok || m.Pkg() == nil || strings.Contains(m.Pkg().Path(), "k8s.io/") {
		return false
	}
	_, ptr := m.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	return ptr
}

// onceWhy says why call, at the end of stack, cannot be made once: in a
// loop or a function literal of the decision, given the object or a
// local the decision (from, to) declares; "" when it can.
func onceWhy(r retries, stack []ast.Node, call *ast.CallExpr, from, to token.Pos) string {
	for _, n := range stack[:len(stack)-1] {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return "it is called in a loop of the decision: one value kept for the next attempt would not do; move the decision into Retry's function by hand"
		case *ast.FuncLit:
			return "it is called in a function literal of the decision: move the decision into Retry's function by hand"
		}
	}
	used, local := false, ""
	ast.Inspect(call, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			v := r.pass.TypesInfo.Uses[id]
			if v != nil && (v == r.obj || v == r.copyOf) {
				used = true
			}
			if v, ok := v.(*types.Var); ok && local == "" && v.Pos() >= from && v.Pos() < to {
				local = v.Name()
			}
		}
		return !used
	})
	if used {
		return fmt.Sprintf("it is given %s, whose status a conflict reads again: move the decision into Retry's function by hand", r.obj.Name())
	}
	if local != "" {
		return fmt.Sprintf("it is given %s, which the decision declares: move the decision into Retry's function by hand", local)
	}
	return ""
}

// onceType is the call's one result's type as the file names it, or why
// there is none.
func onceType(r retries, call *ast.CallExpr) (string, string) {
	sig, ok := r.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return "", "it returns other than one value: move the decision into Retry's function by hand"
	}
	bad := ""
	typ := types.TypeString(sig.Results().At(0).Type(), func(p *types.Package) string {
		q, imp, why := r.text().qualifier(p.Path())
		if why != "" || imp != nil {
			bad = "its result's type is of " + p.Path() + ", which this file does not import: keep its value once by hand"
		}
		return strings.TrimSuffix(q, ".")
	})
	return typ, bad
}

// onceName is the OnceValue's variable: the call's receiver and method
// (tokensAdd; a field's, counterAdd), not a name the function or an
// earlier call takes.
func onceName(r retries, call *ast.CallExpr, taken map[string]bool) string {
	sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	base := "once"
	if v := rootVar(r, sel.X); v != nil {
		m := []rune(sel.Sel.Name)
		m[0] = unicode.ToUpper(m[0])
		base = v.Name() + string(m)
		if f, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok {
			base = f.Sel.Name + string(m) // r.counter.Add: counterAdd
		}
	}
	name := base
	for i := 2; taken[name] || r.text().declaredInFunc(name) || r.text().nameTaken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	taken[name] = true
	return name
}

// onceDecls are the OnceValues' declarations, each followed by a new
// line and indent, from the calls' text in src.
func (p *retryPlan) onceDecls(src []byte, tf *token.File, indent, sync string) string {
	var b strings.Builder
	for _, o := range p.once {
		call := src[tf.Offset(o.call.Pos()):tf.Offset(o.call.End())]
		if o.typ == "" {
			fmt.Fprintf(&b, "%s := %sOnceFunc(func() { %s })\n%s", o.name, sync, call, indent)
			continue
		}
		fmt.Fprintf(&b, "%s := %sOnceValue(func() %s { return %s })\n%s", o.name, sync, o.typ, call, indent)
	}
	return b.String()
}

// onceTexts are the calls' replacements in mutate: each OnceValue called.
func (p *retryPlan) onceTexts(exits map[ast.Node]string) map[ast.Node]string {
	if len(p.once) == 0 {
		return exits
	}
	out := map[ast.Node]string{}
	for n, t := range exits {
		out[n] = t
	}
	for _, o := range p.once {
		out[o.call] = o.name + "()"
	}
	return out
}

// mergeImport adds the import edit e to edits, joined to one inserting
// at the same place.
func mergeImport(edits []analysis.TextEdit, e *analysis.TextEdit) []analysis.TextEdit {
	if e == nil {
		return edits
	}
	for i, x := range edits {
		if x.Pos == e.Pos && x.End == e.End && x.Pos == x.End {
			edits[i].NewText = append(append([]byte{}, e.NewText...), x.NewText...)
			return edits
		}
	}
	return append(edits, *e)
}
