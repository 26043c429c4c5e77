package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"

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
func callWrite(c ssa.CallInstruction, root ssa.Value, depth int) string {
	cc := c.Common()
	if objectWrite(cc) {
		return "" // staleLockBase's own
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
	if callee != nil && callee.Blocks != nil && callee.Pkg != nil && callee.Pkg == c.Parent().Pkg {
		if depth == 0 || given >= len(callee.Params) {
			return ""
		}
		param := callee.Params[given]
		for _, b := range callee.Blocks {
			for _, in := range b.Instrs {
				inner, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if objectWrite(inner.Common()) {
					if r, _ := objectRoot(inner.Common().Args[1]); r == param {
						return fmt.Sprintf("%s writes it (%s at %s)", callee.Name(), calledName(inner.Common()), positionOf(callee, inner))
					}
					continue
				}
				if why := callWrite(inner, param, depth-1); why != "" {
					return callee.Name() + " hands it on: " + why
				}
			}
		}
		return ""
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
	return ""
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

// appliedBefore says why the lock must not be added to a patch whose base
// copies root: a server-side apply of root's object (its configuration
// built from root's fields: widgetac.Widget(w.Name, w.Namespace)) runs
// before the patch is sent. The apply moves the resourceVersion on the
// server, not in root, so a base taken before or after it holds the older
// one, and the locked patch would conflict whenever the apply changes
// anything; "" when none does.
func appliedBefore(pass *analysis.Pass, fn *ssa.Function, root ssa.Value, taken, y ssa.Instruction) string {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			x, ok := in.(ssa.CallInstruction)
			if !ok || x == y || !reaches(x, y) {
				continue
			}
			how, ok := applies(x, root, 2)
			if !ok || readAgain(fn, root, x, taken) {
				continue
			}
			return fmt.Sprintf("the object is applied at line %d%s, before this patch: the apply moves the resourceVersion on the server, not in the object the base copies, so a lock would send the older one and conflict whenever the apply changes anything; read the object again after the apply, or make this write an apply",
				pass.Fset.Position(x.Pos()).Line, how)
		}
	}
	return ""
}

// applies reports whether the call x applies root's object: an Apply of
// a configuration built from root's fields, or a call handing root to a
// function of the package that applies what it is given (how: " by
// applySize, at file.go:N").
func applies(x ssa.CallInstruction, root ssa.Value, depth int) (how string, ok bool) {
	cc := x.Common()
	if cc.IsInvoke() && cc.Method.Name() == "Apply" && len(cc.Args) >= 2 {
		return "", configOf(cc.Args[1], root, 8)
	}
	callee := cc.StaticCallee()
	if depth == 0 || callee == nil || callee.Blocks == nil || callee.Pkg == nil || callee.Pkg != x.Parent().Pkg {
		return "", false
	}
	for i, a := range cc.Args {
		if r, _ := objectRoot(a); r != root || i >= len(callee.Params) {
			continue
		}
		for _, b := range callee.Blocks {
			for _, in := range b.Instrs {
				if inner, ok := in.(ssa.CallInstruction); ok {
					if _, ok := applies(inner, callee.Params[i], depth-1); ok {
						return fmt.Sprintf(" by %s, at %s", callee.Name(), positionOf(callee, inner)), true
					}
				}
			}
		}
	}
	return "", false
}

// readAgain reports whether a Get into root may run after x and before
// taken: the object then holds the apply's resourceVersion.
func readAgain(fn *ssa.Function, root ssa.Value, x, taken ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			g, ok := in.(ssa.CallInstruction)
			if !ok || g == x || !reaches(x, g) || !reaches(g, taken) {
				continue
			}
			gc := g.Common()
			name := ""
			if gc.IsInvoke() {
				name = gc.Method.Name()
			} else if f := gc.StaticCallee(); f != nil {
				name = f.Name()
			}
			if name != "Get" {
				continue
			}
			for _, a := range gc.Args {
				if r, _ := objectRoot(a); r == root {
					return true
				}
			}
		}
	}
	return false
}

// configOf reports whether the apply configuration v is built from
// root's fields: its constructor, through the With... calls on it, is
// given a field of root (w.Name).
func configOf(v ssa.Value, root ssa.Value, depth int) bool {
	for ; depth > 0; depth-- {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Call:
			c := x.Common()
			for _, a := range c.Args {
				if fieldRoot(a) == root {
					return true
				}
			}
			if f := c.StaticCallee(); f != nil && f.Signature.Recv() != nil && len(c.Args) > 0 {
				v = c.Args[0] // a With... builder: its receiver
				continue
			}
		}
		return false
	}
	return false
}

// fieldRoot follows loads and field selections (w.ObjectMeta.Name) back
// to the value they are taken from.
func fieldRoot(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return v
		}
	}
}
