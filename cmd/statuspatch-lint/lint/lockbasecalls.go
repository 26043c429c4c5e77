package lint

import (
	"fmt"
	"go/types"
	"path/filepath"
	"strings"

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
func callWrite(c ssa.CallInstruction, root ssa.Value, depth int) string {
	cc := c.Common()
	if objectWrite(cc) {
		return "" // staleLockBase's own
	}
	if mc, ok := cc.Value.(*ssa.MakeClosure); ok {
		return closureWrite(c, mc, root, depth)
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
	// A method value's wrapper (Pkg nil) calls its package's method.
	if callee != nil && callee.Blocks != nil && callee.Pkg != nil && (callee.Pkg == c.Parent().Pkg || c.Parent().Pkg == nil) {
		if depth == 0 || given >= len(callee.Params) {
			return ""
		}
		return bodyWrite(callee, callee.Name(), map[ssa.Value]bool{callee.Params[given]: true}, depth)
	}
	if callee != nil && callee.Blocks != nil {
		return "" // a function of another package built here (its writes are its own)
	}
	for i, a := range cc.Args {
		if i != given && isWriter(a.Type()) {
			return fmt.Sprintf("%s is given a client beside it, and may update it", callName(cc))
		}
	}
	if cc.IsInvoke() && isWriter(cc.Value.Type()) {
		switch cc.Method.Name() {
		case "Get", "List", "Status", "SubResource", "Scheme", "RESTMapper", "GroupVersionKindFor", "IsObjectNamespaced":
			return ""
		}
		return fmt.Sprintf("%s is a method of a client, and may update it", callName(cc))
	}
	if (cc.IsInvoke() || callee == nil) && takesContext(cc.Signature()) && returnsError(cc.Signature()) {
		return fmt.Sprintf("%s, out of sight, is given a context beside it and returns an error, and may update it", callName(cc))
	}
	return ""
}

// closureWrite says how a literal, or a method value (r.label's bound
// wrapper), called with the object or capturing it, may write it.
func closureWrite(c ssa.CallInstruction, mc *ssa.MakeClosure, root ssa.Value, depth int) string {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth == 0 || fn.Blocks == nil {
		return ""
	}
	roots := map[ssa.Value]bool{}
	for i, b := range mc.Bindings {
		if r, _ := objectRoot(b); r == root && i < len(fn.FreeVars) {
			roots[fn.FreeVars[i]] = true
		}
	}
	for i, a := range c.Common().Args {
		if r, _ := objectRoot(a); r == root && i < len(fn.Params) {
			roots[fn.Params[i]] = true
		}
	}
	if len(roots) == 0 {
		return ""
	}
	name := strings.TrimSuffix(fn.Name(), "$bound")
	if fn.Synthetic == "" {
		name = fmt.Sprintf("the literal at line %d", fn.Prog.Fset.Position(fn.Pos()).Line)
	}
	return bodyWrite(fn, name, roots, depth)
}

// bodyWrite says how fn, named name, writes one of roots (its parameter
// or captured variable the object is): a Patch or Update of it, or a call
// given it that may.
func bodyWrite(fn *ssa.Function, name string, roots map[ssa.Value]bool, depth int) string {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			inner, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if objectWrite(inner.Common()) {
				if r, _ := objectRoot(inner.Common().Args[1]); roots[r] {
					return fmt.Sprintf("%s writes it (%s at %s)", name, calledName(inner.Common()), positionOf(fn, inner))
				}
				continue
			}
			for r := range roots {
				if why := callWrite(inner, r, depth-1); why != "" {
					return name + " hands it on: " + why
				}
			}
		}
	}
	return ""
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
