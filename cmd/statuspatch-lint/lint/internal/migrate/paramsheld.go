package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An object held in a field of another value and reached through an
// interface: operatorpkg's status.ConditionSet holds the object
// ConditionTypes.For is given (condition_set.go:87), and its setters call
// object.SetConditions through the status.Object interface; karpenter's
// NodePool.StatusConditions returns For(in). Two summaries, both analysis
// facts (ParamsFact):
//
//   - Fields, of each method of a type with a field of an object
//     interface (a holder): the interface's methods it calls on the
//     object in that field, directly or through the type's other methods,
//     and whether what each returns is handed on ("M*") or only read; or,
//     in Why, what else it does with the field (Unknown);
//   - Holds, of a function or method whose result holds the object it is
//     given (a parameter, or the receiver: -1) in such a field, with the
//     calls it makes on it there.
//
// Where a holder's methods are called on it, the object's type is known:
// the kind that was stored. Each call through the interface is then the
// kind's method, judged by its facts: it reads or changes at most the
// status (Recv), and when what it returns is handed on, that is at most a
// reference into the status (StatusRefs: SetConditions assigns only
// in.Status.Conditions, GetConditions returns it). A holder handed on, a
// field reached otherwise, or a kind not known keeps the write.

// Held is what is done to an object a holder's field holds.
type Held struct {
	Index int        // Holds: the parameter (-1: the receiver) the result holds
	Field string     // the holder's field the object is in
	Calls []HeldCall // the interface's methods called on it
	Why   string     // Fields: what else the method does with the field (file:line)
}

// HeldCall is one method called on a held object through its interface.
type HeldCall struct {
	Name   string
	Handed bool   // what it returns is handed on, or may be changed
	At     string // file:line of the first such call
}

// held follows a holder of the object through a function's code.
type held struct{ checks }

func (m *migration) held() held { return held{m.checks()} }

// holding is set while ParamsFact.Holds of fd is computed: a holder of
// the object fd returns is recorded in out.
type holding struct {
	fd  *ast.FuncDecl
	out []Held
}

// addCalls merges calls into to, each name and handedness once.
func addCalls(to []HeldCall, calls ...HeldCall) []HeldCall {
	for _, c := range calls {
		if !slices.ContainsFunc(to, func(d HeldCall) bool { return d.Name == c.Name && d.Handed == c.Handed }) {
			to = append(to, c)
		}
	}
	return to
}

// ifaceCall says which method is called on the held object at stack[i]
// (x.field), through its interface, when it is one: x.field.M(...), and
// whether what it returns is handed on (chainChange).
func (h held) ifaceCall(stack []ast.Node, i int) (HeldCall, bool) {
	if i < 2 {
		return HeldCall{}, false
	}
	sel, ok := stack[i-1].(*ast.SelectorExpr)
	if !ok || sel.X != stack[i] {
		return HeldCall{}, false
	}
	call, ok := stack[i-2].(*ast.CallExpr)
	if s := h.pass.TypesInfo.Selections[sel]; !ok || call.Fun != sel || s == nil || s.Kind() != types.MethodVal {
		return HeldCall{}, false
	}
	c := HeldCall{Name: sel.Sel.Name, At: h.where(sel.Pos())}
	if holdsRefs(h.pass.TypesInfo.TypeOf(call)) {
		direct, how := h.refs().chainChange(stack[:i-1], i-2)
		c.Handed = direct || how != ""
	}
	return c, true
}

// use judges a use of v (the last node of stack) that makes a holder of
// it: an argument or receiver of a call whose fact Holds it, or the value
// of a holder's field in a composite literal. ok is false for any other
// use.
func (h held) use(stack []ast.Node, v *types.Var) (ok bool, why string) {
	i := len(stack) - 1
	var hd Held
	at := -1
	switch p := stack[i-1].(type) {
	case *ast.CallExpr:
		arg := slices.Index(p.Args, stack[i].(ast.Expr))
		fn := kube.CalledFunc(h.pass, p)
		if arg < 0 || fn == nil || p.Ellipsis.IsValid() && arg >= fn.Signature().Params().Len()-1 {
			return false, ""
		}
		if hd, ok = h.holds(fn, arg); ok {
			at = i - 1
		}
	case *ast.SelectorExpr:
		s := h.pass.TypesInfo.Selections[p]
		if i < 2 || s == nil || s.Kind() != types.MethodVal {
			return false, ""
		}
		if call, isCall := stack[i-2].(*ast.CallExpr); isCall && call.Fun == p {
			fn, _ := s.Obj().(*types.Func)
			if hd, ok = h.holds(fn, -1); ok {
				at = i - 2
			}
		}
	case *ast.KeyValueExpr:
		lit, isLit := stack[i-2].(*ast.CompositeLit)
		key, isKey := p.Key.(*ast.Ident)
		if isLit && isKey && p.Value == stack[i] && slices.Contains(objectFields(h.pass.TypesInfo.TypeOf(lit)), key.Name) {
			hd, ok, at = Held{Field: key.Name}, true, i-2
		}
	}
	if !ok {
		return false, ""
	}
	what := fmt.Sprintf("the %s made at %s holds %s", typeText(h.pass.TypesInfo.TypeOf(stack[at].(ast.Expr)), h.pass.Pkg), h.where(stack[at].Pos()), v.Name())
	calls, returned, why := h.follow(stack, at, hd.Field, hd.Calls)
	switch {
	case why != "":
		return true, what + ", and " + why
	case returned:
		return true, ""
	}
	return true, h.resolve(v, calls, what)
}

// holds is fn's ParamsFact.Holds of its argument arg (-1: the receiver).
func (h held) holds(fn *types.Func, arg int) (Held, bool) {
	var fact ParamsFact
	if fn == nil || !h.pass.ImportObjectFact(fn.Origin(), &fact) {
		return Held{}, false
	}
	for _, hd := range fact.Holds {
		if hd.Index == arg {
			return hd, true
		}
	}
	return Held{}, false
}

// follow follows the holder stack[at] (of the object in field) to where
// it ends: its methods called (their Fields add to calls), a local it is
// put in (that local's uses), or a return of the function ParamsFact.Holds
// is computed for (returned, recorded in h.holding). Anything else says
// why.
func (h held) follow(stack []ast.Node, at int, field string, calls []HeldCall) (_ []HeldCall, returned bool, why string) {
	e := stack[at].(ast.Expr)
	line := h.where(e.Pos())
	if calls, why, ok := h.keptHere(stack, at, field, calls); ok {
		return calls, false, why // x.f = append(x.f, holder) (lifekept.go)
	}
	switch p := stack[at-1].(type) {
	case *ast.SelectorExpr:
		s := h.pass.TypesInfo.Selections[p]
		if s != nil && s.Kind() == types.FieldVal && p.X == e {
			if len(s.Index()) == 1 && p.Sel.Name == field {
				calls, why := h.heldSelected(stack[:at], at-1, calls) // x.object (lifekept.go)
				return calls, false, why
			}
			return calls, false, "" // another field of the holder
		}
		call, ok := stack[at-2].(*ast.CallExpr)
		if s == nil || s.Kind() != types.MethodVal || !ok || call.Fun != p {
			return nil, false, fmt.Sprintf("%s is selected at %s", types.ExprString(p), line)
		}
		if len(s.Index()) > 1 {
			return calls, false, "" // a method of an embedded field, which does not hold it
		}
		fn, _ := s.Obj().(*types.Func)
		var fact ParamsFact
		if fn == nil || !h.pass.ImportObjectFact(fn.Origin(), &fact) {
			return nil, false, fmt.Sprintf("its method %s, called at %s, has no summary of what it does to it", p.Sel.Name, line)
		}
		for _, f := range fact.Fields {
			if f.Field == field && f.Why != "" {
				return nil, false, fmt.Sprintf("its method %s, called at %s, does more with it: %s", p.Sel.Name, line, f.Why)
			} else if f.Field == field {
				return addCalls(calls, f.Calls...), false, ""
			}
		}
		return nil, false, fmt.Sprintf("its method %s, called at %s, has no summary of what it does to it", p.Sel.Name, line)
	case *ast.AssignStmt, *ast.ValueSpec:
		local, blank := h.refs().definedLocal(p, e)
		if blank {
			return calls, false, ""
		}
		if local != nil {
			return h.followLocal(local, field, calls)
		}
		if local, lhs := h.reassigned(p, e); lhs {
			return calls, false, "" // the local is overwritten: the holder it had ends
		} else if local != nil {
			return h.followLocal(local, field, calls)
		}
	case *ast.ReturnStmt:
		if h.holding != nil && len(stack) > 0 && stack[0] == h.holding.fd.Body && !slices.ContainsFunc(stack, func(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok }) {
			h.holding.out = append(h.holding.out, Held{Field: field, Calls: calls})
			return calls, true, ""
		}
		return nil, false, "it is returned at " + line
	case *ast.ExprStmt:
		return calls, false, ""
	case *ast.UnaryExpr:
		// &eventParams{object: js, ...} (jobset's setCondition): the
		// address of a literal made here is the holder, followed where a
		// write is judged; a fact (holding) keeps it handed on, as
		// client.MergeFrom's &mergeFromPatch{from: obj} has always been.
		if _, lit := e.(*ast.CompositeLit); lit && p.Op == token.AND && at > 1 && h.holding == nil {
			return h.follow(stack, at-1, field, calls)
		}
	case *ast.CallExpr:
		// karpenter's c.recorder.Publish(FailedConsistencyCheckEvent(nodeClaim, ...)).
		if fn := kube.CalledFunc(h.pass, p); fn != nil && slices.Contains(p.Args, e) {
			if isIfaceMethod(fn) && h.holding == nil {
				// the module's implementations, by the module driver (paramsheldiface.go)
				ok, why := h.ifaceHeld(p, fn, slices.Index(p.Args, e), field)
				if ok {
					return calls, false, ""
				}
				return nil, false, fmt.Sprintf("it is passed to %s at %s %s", funcName(fn, h.pass.Pkg), line, why)
			}
			if calls, why, ok := h.keptBy(fn, slices.Index(p.Args, e), field, calls); ok && why == "" {
				return calls, false, ""
			} else if ok {
				return nil, false, fmt.Sprintf("it is passed to %s at %s, %s", funcName(fn, h.pass.Pkg), line, why)
			}
			return nil, false, fmt.Sprintf("it is passed to %s at %s%s, which -fix does not follow with what it holds", funcName(fn, h.pass.Pkg), line, h.unanalysed(fn))
		}
	}
	return nil, false, "it is handed on at " + line
}

// followLocal follows each use of local, a holder of the object in field.
func (h held) followLocal(local *types.Var, field string, calls []HeldCall) (_ []HeldCall, returned bool, why string) {
	scope := local.Parent()
	var file *ast.File
	for _, f := range h.pass.Files {
		if f.FileStart <= local.Pos() && local.Pos() < f.FileEnd {
			file = f
		}
	}
	if scope == nil || file == nil {
		return nil, false, local.Name() + " is not followed"
	}
	why = h.eachUse(file, local, scope.Pos(), scope.End(), func(stack []ast.Node, id *ast.Ident) string {
		if h.holding != nil {
			// Its uses are in the function whose Holds is computed.
			if i := slices.Index(stack, ast.Node(h.holding.fd.Body)); i > 0 {
				stack = stack[i:]
			}
		}
		var ret bool
		var w string
		calls, ret, w = h.follow(stack, len(stack)-1, field, calls)
		returned = returned || ret
		return w
	})
	return calls, returned, why
}

// resolve judges calls, made through an interface on the object v a
// holder holds, by the methods of v's kind and their facts.
func (h held) resolve(v *types.Var, calls []HeldCall, what string) string {
	kind := v.Type()
	if !mayBeObject(kind) || types.IsInterface(kind) {
		return fmt.Sprintf("%s, whose methods it calls through an interface: its type %s does not say which", what, typeText(kind, h.pass.Pkg))
	}
	for _, c := range calls {
		obj, _, _ := types.LookupFieldOrMethod(kind, true, nil, c.Name)
		fn, _ := obj.(*types.Func)
		if fn == nil {
			return fmt.Sprintf("%s and calls %s at %s, which %s has not", what, c.Name, c.At, typeText(kind, h.pass.Pkg))
		}
		var fact ParamsFact
		h.pass.ImportObjectFact(fn.Origin(), &fact)
		ok := leavesFunc(h.pass, fn)
		if ok && c.Handed && holdsRefs(fn.Signature().Results()) && !fact.StatusRefs {
			return fmt.Sprintf("%s and calls its %s at %s, whose result, which may hold references into more than the status, is handed on there", what, funcName(fn, h.pass.Pkg), c.At)
		}
		if !ok {
			if w := h.factWhy(fn, -1); w != "" {
				return fmt.Sprintf("%s and calls its %s at %s%s", what, funcName(fn, h.pass.Pkg), c.At, w)
			}
			return fmt.Sprintf("%s and calls its %s at %s%s: it may change more than the status", what, funcName(fn, h.pass.Pkg), c.At, h.unanalysed(fn))
		}
	}
	return ""
}

// typeText names t as code of package from writes it.
func typeText(t types.Type, from *types.Package) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	})
}

// reassigned is, for the holder e in the plain assignment p (s = ...), the
// local of the function it is assigned to, whose uses are then followed
// as those of a local it defines (karpenter's s = nc.StatusConditions()
// after a first set); lhs reports that e is that local, overwritten.
func (h held) reassigned(p ast.Node, e ast.Expr) (local *types.Var, lhs bool) {
	as, ok := p.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return nil, false
	}
	for i, r := range as.Rhs {
		id, _ := as.Lhs[i].(*ast.Ident)
		if id == nil {
			continue
		}
		if as.Lhs[i] == e {
			return nil, true
		}
		if v, _ := h.pass.TypesInfo.Uses[id].(*types.Var); r == e && v != nil && !v.IsField() && v.Parent() != nil && v.Parent() != h.pass.Pkg.Scope() {
			return v, false
		}
	}
	return nil, false
}
