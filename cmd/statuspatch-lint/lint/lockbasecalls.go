package lint

import (
	"fmt"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A write of the object made by a call (issue 80: a lock that makes a new
// 409). staleLockBase names a Patch or Update of the base's object in the
// function; a call given the object may write it too: a function of the
// package that updates what it is given (r.ensureLabel(ctx, obj), whose
// body ends in r.Update(ctx, obj)), or a call out of sight given a client
// beside it (touch(ctx, r.Client, obj) of another package, a function
// value, an interface's method: controllerutil.CreateOrUpdate is one).
// Locked, the status patch would then send the resourceVersion that write
// moved, and conflict each time it writes.

// callWrite says how the call c, given the object root, may write it: the
// write it makes, or why it may; "" when it does not.
func callWrite(pass *analysis.Pass, c ssa.CallInstruction, root ssa.Value, depth int) string {
	cc := c.Common()
	if objectWrite(cc) {
		return "" // staleLockBase's own
	}
	if fn, roots := handedTo(c, root); fn != nil {
		if depth == 0 {
			return ""
		}
		return bodyWrite(pass, fn, funcName(fn), roots, depth)
	}
	if _, ok := cc.Value.(*ssa.MakeClosure); ok {
		return "" // a literal neither given nor capturing it
	}
	given := -1
	for i, a := range cc.Args {
		if r, _ := objectRoot(a); r == root {
			given = i
			break
		}
	}
	if given < 0 {
		return ""
	}
	callee := cc.StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Signature.Recv() != nil && isWriter(callee.Signature.Recv().Type()) && !clientRead(callee.Name()) {
		// A client's method promoted through a struct embedding it
		// (r.Delete(ctx, obj)): its wrapper calls the interface's.
		return fmt.Sprintf("%s is a method of a client, and may update it", callee.Name())
	}
	if callee != nil && callee.Blocks != nil {
		return "" // a function of another package built here (its writes are its own)
	}
	if readsOnly(pass, callee, given) {
		return "" // its package's analysis saw it only read it (lockbasefacts.go)
	}
	for i, a := range cc.Args {
		if i != given && isWriter(a.Type()) {
			return fmt.Sprintf("%s is given a client beside it, and may update it", callName(cc))
		}
	}
	if callee != nil && callee.Signature.Recv() != nil && given > 0 && holdsWriter(cc.Args[0].Type()) {
		// A helper another package's function returned, holding the
		// client it was given (cluster-api's patch.Helper: NewHelper only
		// reads the object, the helper's Patch writes it).
		return fmt.Sprintf("%s is a method of a value holding a client, and may update it", callName(cc))
	}
	if cc.IsInvoke() && isWriter(cc.Value.Type()) {
		if clientRead(cc.Method.Name()) {
			return ""
		}
		return fmt.Sprintf("%s is a method of a client, and may update it", callName(cc))
	}
	if (cc.IsInvoke() || callee == nil) && takesContext(cc.Signature()) && returnsError(cc.Signature()) {
		return fmt.Sprintf("%s, out of sight, is given a context beside it and returns an error, and may update it", callName(cc))
	}
	return ""
}

// handedTo is the function the call c runs with the object root in
// sight, and the object's values there (parameters, captured variables):
// a function of the package given it, a literal given or capturing it, a
// method value's bound method (r.label's wrapper, whose package is nil,
// calls its package's method); nil when c runs none it can see into
// (another package's function, an interface's method) or hands it none.
// Both the lock's rules (callWrite, applies) and -fix's questions
// (lockbasequery.go) follow the object into a call by it.
func handedTo(c ssa.CallInstruction, root ssa.Value) (*ssa.Function, map[ssa.Value]bool) {
	cc := c.Common()
	roots := map[ssa.Value]bool{}
	var fn *ssa.Function
	if mc, ok := cc.Value.(*ssa.MakeClosure); ok {
		fn, _ = mc.Fn.(*ssa.Function)
		if fn == nil {
			return nil, nil
		}
		for i, b := range mc.Bindings {
			if r, _ := objectRoot(b); r == root && i < len(fn.FreeVars) {
				roots[fn.FreeVars[i]] = true
			}
		}
	} else {
		fn = cc.StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg != c.Parent().Pkg && c.Parent().Pkg != nil {
			return nil, nil
		}
	}
	if fn.Blocks == nil {
		return nil, nil
	}
	for i, a := range cc.Args {
		if r, _ := objectRoot(a); r == root && i < len(fn.Params) {
			roots[fn.Params[i]] = true
		}
	}
	if len(roots) == 0 {
		return nil, nil
	}
	return fn, roots
}

// rootOrder yields roots, fn's values of the object, in fn's order: its
// captured variables, then its parameters; what a loop over them finds
// first (a reason's callee and line) is then the same on every run.
func rootOrder(fn *ssa.Function, roots map[ssa.Value]bool) []ssa.Value {
	var out []ssa.Value
	for _, v := range fn.FreeVars {
		if roots[v] {
			out = append(out, v)
		}
	}
	for _, v := range fn.Params {
		if roots[v] {
			out = append(out, v)
		}
	}
	return out
}

// funcName names fn in a reason: a literal by its line, a method value's
// wrapper by its method.
func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return fmt.Sprintf("the literal at line %d", fn.Prog.Fset.Position(fn.Pos()).Line)
	}
	return strings.TrimSuffix(fn.Name(), "$bound")
}

// bodyWrite says how fn, named name, writes one of roots (its parameter
// or captured variable the object is): a Patch or Update of it, or a call
// given it that may.
func bodyWrite(pass *analysis.Pass, fn *ssa.Function, name string, roots map[ssa.Value]bool, depth int) string {
	for inner := range callsOf(fn) {
		if objectWrite(inner.Common()) {
			if r, _ := objectRoot(inner.Common().Args[1]); roots[r] {
				return fmt.Sprintf("%s writes it (%s at %s)", name, calledName(inner.Common()), positionOf(fn, inner))
			}
			continue
		}
		for _, r := range rootOrder(fn, roots) {
			if why := callWrite(pass, inner, r, depth-1); why != "" {
				return name + " hands it on: " + why
			}
		}
	}
	return ""
}

// holdsWriter reports whether t, a struct or a pointer to one, has a
// field that is a client.
func holdsWriter(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if isWriter(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// clientRead reports whether a client's method of that name only reads.
func clientRead(name string) bool {
	switch name {
	case "Get", "List", "Status", "SubResource", "Scheme", "RESTMapper", "GroupVersionKindFor", "IsObjectNamespaced":
		return true
	}
	return false
}

// returnsError reports whether sig's last result is an error: a call
// that may fail at the server (a check returning a bool does not write).
func returnsError(sig *types.Signature) bool {
	n := sig.Results().Len()
	return n > 0 && types.Identical(sig.Results().At(n-1).Type(), types.Universe.Lookup("error").Type())
}

// takesContext reports whether sig has a context.Context parameter: a
// call that may reach the server.
func takesContext(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if n, ok := sig.Params().At(i).Type().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context" {
			return true
		}
	}
	return false
}

// isWriter reports whether t has a client's Update and Patch methods.
func isWriter(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if _, ok := t.Underlying().(*types.Interface); !ok {
		if _, isPtr := t.(*types.Pointer); !isPtr {
			ms = types.NewMethodSet(types.NewPointer(t))
		}
	}
	return ms.Lookup(nil, "Update") != nil && ms.Lookup(nil, "Patch") != nil
}

// callName names the function or method cc calls.
func callName(cc *ssa.CallCommon) string {
	if cc.IsInvoke() {
		return cc.Method.Name()
	}
	if f := cc.StaticCallee(); f != nil {
		if f.Pkg != nil {
			return f.Pkg.Pkg.Name() + "." + f.Name()
		}
		return f.Name()
	}
	return "a function value"
}

// positionOf is "file.go:N" of in, in fn's file.
func positionOf(fn *ssa.Function, in ssa.Instruction) string {
	p := fn.Prog.Fset.Position(in.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
