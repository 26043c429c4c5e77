package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A holder of the object kept in a field of another value: jobset's
// setCondition makes &eventParams{object: js, ...} and hands it to
// enqueueEvent, which appends it to updateStatusOpts.events; the field's
// only other uses are a range whose event.object goes to client-go's
// EventRecorder.Eventf, after the write. The holder is followed into the
// callee's parameter (a function of the package: its body is here), to the
// field it keeps it in (an unexported field of a type of the package, so
// that every use of it is in the package's files), and through every use
// of that field: a store, an append back into it, len or cap, a
// comparison, and a range or an index whose element is the holder again,
// followed as a local holder is (held.follow). Where the held object is
// selected from a holder (event.object), that use is judged as a use of
// the object itself that may come at any time: a read (allowedCall's
// readers: an event recorder, a key, a log reference, an encoder), or a
// method called through its interface, judged by the stored kind's
// facts (held.resolve). A client call on it, a callee that may change
// it, the field handed on, or a callee that does more with its parameter
// keeps the write, naming the line.

// keptBy follows the holder passed as argument arg of fn at line: ok is
// false when fn's body is not the package's to read (the caller's reason
// stands); why says, after "it is passed to fn at line", what blocks.
func (h held) keptBy(fn *types.Func, arg int, field string, calls []HeldCall) (_ []HeldCall, why string, ok bool) {
	if h.holding != nil {
		return nil, "", false // a fact's Holds: a holder kept elsewhere is not returned
	}
	fd := h.funcDecl(fn.Origin())
	if fd == nil || fd.Body == nil {
		return nil, "", false
	}
	params := paramVars(h.pass, fd)
	if arg >= len(params) || params[arg] == nil || fn.Signature().Variadic() && arg >= len(params)-1 {
		return nil, "", false
	}
	calls, why = h.paramHeld(fd, params[arg], field, calls)
	return calls, why, true
}

// paramHeld follows p, a parameter of fd that is a holder of the object in
// field, or a slice of them (a variadic ...Event), through fd's body:
// compared, kept in a field of the package (keptIn), passed on to a
// function of the package (passedOn), its fields selected or its methods
// called (follow), or, for a slice, ranged over, each value a holder.
// why says, after "it is passed to fn at line", what else is done.
func (h held) paramHeld(fd *ast.FuncDecl, p *types.Var, field string, calls []HeldCall) (_ []HeldCall, why string) {
	_, elems := p.Type().Underlying().(*types.Slice)
	var fields []*types.Var
	why = h.eachUse(fd.Body, p, fd.Body.Pos(), fd.Body.End(), func(stack []ast.Node, id *ast.Ident) string {
		switch q := stack[len(stack)-2].(type) {
		case *ast.BinaryExpr:
			if q.Op == token.EQL || q.Op == token.NEQ {
				return "" // compared, as with nil
			}
		case *ast.RangeStmt:
			if elems && q.X == id {
				return h.rangedHolder(q, field, &calls) // karpenter's recorder.Publish(evts ...Event)
			}
		case *ast.CallExpr:
			if elems && (h.builtin(q, "len") || h.builtin(q, "cap")) {
				return ""
			}
		case *ast.SelectorExpr:
			if !elems && q.X == id {
				c, _, w := h.follow(stack, len(stack)-1, field, calls) // evt.InvolvedObject, evt.dedupeKey()
				calls = c
				return w
			}
		}
		if elems {
			return fmt.Sprintf("where %s is handed on at %s", p.Name(), h.where(id.Pos()))
		}
		if f := h.keeps(stack); f != nil {
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
			return ""
		}
		if c, w, ok := h.passedOn(stack, id, field, calls); ok {
			calls = c
			return w // handed to another function of the package (jobset's failurePolicyRecreateAll to enqueueEvent)
		}
		return fmt.Sprintf("where %s is handed on at %s", p.Name(), h.where(id.Pos()))
	})
	if why != "" {
		return nil, why
	}
	for _, f := range fields {
		if calls, why = h.keptIn(f, field, calls); why != "" {
			return nil, fmt.Sprintf("which keeps it in %s, where %s", fieldName(f, h.pass.Pkg), why)
		}
	}
	return calls, ""
}

// passedOn follows the holder id, a parameter keptBy follows, passed
// on as an argument to a function of the package: keptBy of that one
// (a function already being followed is a recursive call, whose uses
// are the ones being checked). ok is false when it is not such a call.
func (h held) passedOn(stack []ast.Node, id *ast.Ident, field string, calls []HeldCall) (_ []HeldCall, why string, ok bool) {
	call, isCall := stack[len(stack)-2].(*ast.CallExpr)
	if !isCall || call.Ellipsis.IsValid() {
		return nil, "", false
	}
	arg := slices.Index(call.Args, ast.Expr(id))
	fn := kube.CalledFunc(h.pass, call)
	if arg < 0 || fn == nil || fn.Pkg() != h.pass.Pkg || fn.Signature().Recv() != nil && !isMethodCall(h.pass, call) {
		return nil, "", false
	}
	if slices.Contains(h.following, fn) {
		return calls, "", true
	}
	h.following = append(h.following, fn)
	defer func() { h.following = h.following[:len(h.following)-1] }()
	c, w, ok := h.keptBy(fn, arg, field, calls)
	if !ok {
		return nil, "", false
	}
	if w != "" {
		return nil, fmt.Sprintf("where %s is passed to %s at %s, %s", id.Name, funcName(fn, h.pass.Pkg), h.where(id.Pos()), w), true
	}
	return c, "", true
}

// isMethodCall reports whether call calls a method through a value
// (x.M(...)), not a method expression ((*T).M(x, ...)).
func isMethodCall(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := pass.TypesInfo.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal
}

// keptHere follows the holder stack[at] when it is put, where it is
// made, in a field of another value (x.f = append(x.f, holder)).
func (h held) keptHere(stack []ast.Node, at int, field string, calls []HeldCall) (_ []HeldCall, why string, ok bool) {
	f := h.keeps(stack[:at+1])
	if f == nil || h.holding != nil {
		return nil, "", false
	}
	if calls, why = h.keptIn(f, field, calls); why != "" {
		return nil, fmt.Sprintf("it is kept in %s at %s, where %s", fieldName(f, h.pass.Pkg), h.where(stack[at].Pos()), why), true
	}
	return calls, "", true
}

// keeps is the field a use of a holder (the last node of stack) is kept
// in: x.f = v, x.f = append(x.f, ..., v, ...), of an unexported field of
// a type of the package whose type is the holder's, or a slice, array or
// map of it. nil for any other use.
func (h held) keeps(stack []ast.Node) *types.Var {
	i := len(stack) - 1
	if i < 2 {
		return nil
	}
	rhs := stack[i].(ast.Expr)
	var appended *ast.CallExpr
	if call, ok := stack[i-1].(*ast.CallExpr); ok && h.builtin(call, "append") && slices.Index(call.Args, rhs) > 0 && !call.Ellipsis.IsValid() {
		rhs, i, appended = call, i-1, call
	}
	as, ok := stack[i-1].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	at := slices.Index(as.Rhs, rhs)
	if at < 0 {
		return nil
	}
	f := h.fieldOf(as.Lhs[at])
	if f == nil {
		return nil
	}
	if appended != nil && h.fieldOf(appended.Args[0]) != f {
		return nil // appended to another slice
	}
	return f
}

// fieldOf is the field e selects (x.f), when it is a field of a struct of
// the package (keptIn follows an unexported one: every use of it is in
// the package's files).
func (h held) fieldOf(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := h.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	f := s.Obj().(*types.Var)
	if f.Pkg() != h.pass.Pkg {
		return nil
	}
	return f
}

// appendedBack reports whether parent, the parent of the append call,
// assigns it to the field f: x.f = append(x.f, ...).
func (h held) appendedBack(parent ast.Node, call *ast.CallExpr, f *types.Var) bool {
	as, ok := parent.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	at := slices.Index(as.Rhs, ast.Expr(call))
	return at >= 0 && h.fieldOf(as.Lhs[at]) == f
}

// calledName names the function call calls, "" when it is not one.
func (h held) calledName(call *ast.CallExpr) string {
	fn := kube.CalledFunc(h.pass, call)
	if fn == nil {
		return ""
	}
	return funcName(fn, h.pass.Pkg)
}

// finalizerCall reports whether call is controllerutil's AddFinalizer or
// RemoveFinalizer, which change the object.
func (h held) finalizerCall(call *ast.CallExpr) bool {
	fn := kube.CalledFunc(h.pass, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == controllerutilPath && changesFinalizers[fn.Name()]
}

// builtin reports whether call is a call of the builtin name.
func (h held) builtin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := h.pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// keptIn follows each use of the field f, in every file of the package,
// whose values (or elements) are holders of the object in field. A field
// already being followed is judged there.
func (h held) keptIn(f *types.Var, field string, calls []HeldCall) (_ []HeldCall, why string) {
	if f.Exported() {
		return nil, fmt.Sprintf("%s is exported: other packages may reach what it holds", fieldName(f, h.pass.Pkg))
	}
	if slices.Contains(h.keeping, f) {
		return calls, ""
	}
	h.keeping = append(h.keeping, f)
	defer func() { h.keeping = h.keeping[:len(h.keeping)-1] }()
	_, elems := f.Type().Underlying().(interface{ Elem() types.Type })
	if _, ch := f.Type().Underlying().(*types.Chan); ch {
		return nil, fmt.Sprintf("%s is a channel", f.Name())
	}
	for _, file := range h.pass.Files {
		why = h.eachUse(file, f, file.FileStart, file.FileEnd, func(stack []ast.Node, id *ast.Ident) string {
			line := h.where(id.Pos())
			if kv, ok := stack[len(stack)-2].(*ast.KeyValueExpr); ok && kv.Key == id {
				return "" // a value stored in a literal: not the holder
			}
			sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
			if !ok || sel.Sel != id || len(stack) < 3 {
				return fmt.Sprintf("%s is used at %s", f.Name(), line)
			}
			stack = stack[:len(stack)-1] // ends with x.f
			i := len(stack) - 1
			switch p := stack[i-1].(type) {
			case *ast.AssignStmt:
				if slices.Contains(p.Lhs, ast.Expr(sel)) {
					return "" // set: what it is set to is judged where it is made
				}
			case *ast.CallExpr:
				switch {
				case h.builtin(p, "len") || h.builtin(p, "cap"):
					return ""
				case h.builtin(p, "append") && len(p.Args) > 0 && p.Args[0] == sel && h.appendedBack(stack[i-2], p, f):
					return "" // x.f = append(x.f, ...)
				}
			case *ast.BinaryExpr:
				if p.Op == token.EQL || p.Op == token.NEQ {
					return ""
				}
			case *ast.RangeStmt:
				if elems && p.X == sel {
					return h.rangedHolder(p, field, &calls)
				}
			case *ast.IndexExpr:
				if elems && p.X == sel {
					c, _, w := h.follow(stack[:i], i-1, field, calls)
					calls = c
					return w
				}
			}
			if !elems {
				c, _, w := h.follow(stack, i, field, calls)
				calls = c
				return w
			}
			return fmt.Sprintf("%s is handed on at %s", types.ExprString(sel), line)
		})
		if why != "" {
			return nil, why
		}
	}
	return calls, ""
}

// rangedHolder follows the value of a range over a field of holders.
func (h held) rangedHolder(r *ast.RangeStmt, field string, calls *[]HeldCall) string {
	if r.Value == nil {
		return ""
	}
	id, ok := r.Value.(*ast.Ident)
	v, _ := h.pass.TypesInfo.Defs[id].(*types.Var)
	if !ok || r.Tok != token.DEFINE {
		return fmt.Sprintf("the range at %s sets %s", h.where(r.Pos()), types.ExprString(r.Value))
	}
	if v == nil {
		return "" // _
	}
	c, _, why := h.followLocal(v, field, *calls)
	*calls = c
	return why
}

// heldSelected judges x.f, the object a holder x holds in field f
// (stack[at]), where it is used: read (allowedCall), compared, or called
// through its interface (its calls, judged by the stored kind's facts
// where the holder is made). A client call on it may come at any time:
// it keeps the write, as any other use does.
func (h held) heldSelected(stack []ast.Node, at int, calls []HeldCall) ([]HeldCall, string) {
	sel := stack[at].(*ast.SelectorExpr)
	line := h.where(sel.Pos())
	if c, ok := h.ifaceCall(stack, at); ok {
		return addCalls(calls, c), ""
	}
	switch p := stack[at-1].(type) {
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			return calls, ""
		}
	case *ast.CallExpr:
		if h.clientWrite(p) != "" {
			return nil, fmt.Sprintf("%s is passed to a client's %s at %s", types.ExprString(sel), h.clientWrite(p), line)
		}
		if fn := h.calledName(p); fn != "" && slices.Contains(p.Args, ast.Expr(sel)) && !h.finalizerCall(p) && h.allowedCall(p, sel, nil) {
			return calls, ""
		}
		if fn := h.calledName(p); fn != "" {
			// A reader it is not: say what the callee's body does, when
			// it is the package's to read.
			if ok, inner := h.checkCallee(p, sel, 1); !ok && inner != "" {
				return nil, fmt.Sprintf("%s is passed to %s at %s, where %s", types.ExprString(sel), fn, line, inner)
			}
			return nil, fmt.Sprintf("%s is passed to %s at %s, which is no reader -fix knows of: it may change it at any time", types.ExprString(sel), fn, line)
		}
	}
	return nil, fmt.Sprintf("%s is handed on at %s", types.ExprString(sel), line)
}

// fieldName names the field f as Type.f.
func fieldName(f *types.Var, from *types.Package) string {
	for _, n := range from.Scope().Names() {
		tn, ok := from.Scope().Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if s, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < s.NumFields(); i++ {
				if s.Field(i) == f {
					return tn.Name() + "." + f.Name()
				}
			}
		}
	}
	return f.Name()
}
