package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
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
				if why := callWrite(pass, inner, r, depth-1); why != "" {
					return name + " hands it on: " + why
				}
			}
		}
	}
	return ""
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
			via, apply := applies(x, root, 2)
			if apply == nil || readAgain(fn, root, x, taken) {
				continue
			}
			return appliedWhy(pass, x, via, apply)
		}
	}
	if x, via, apply := enclosingApply(fn, root, token.NoPos, y); x != nil {
		return appliedWhy(pass, x, via, apply) // the patch in a literal, the apply outside it
	}
	return ""
}

// appliedWhy is appliedBefore's reason for the apply at x (by via, at
// apply).
func appliedWhy(pass *analysis.Pass, x ssa.CallInstruction, via *ssa.Function, apply ssa.CallInstruction) string {
	how := ""
	if via != nil {
		how = fmt.Sprintf(" by %s, at %s", funcName(via), positionOf(apply.Parent(), apply))
	}
	return fmt.Sprintf("the object is applied at line %d%s, before this patch: the apply moves the resourceVersion on the server, not in the object the base copies, so a lock would send the older one and conflict whenever the apply changes anything; read the object again after the apply, or make this write an apply",
		pass.Fset.Position(x.Pos()).Line, how)
}

// applies says whether the call x applies root's object: an Apply of a
// configuration built from root's fields (apply is x), or a call running
// a function that applies it, the object in its sight (handedTo: via is
// that function, apply the Apply in it or deeper); nil when it does not.
func applies(x ssa.CallInstruction, root ssa.Value, depth int) (via *ssa.Function, apply ssa.CallInstruction) {
	cc := x.Common()
	if cc.IsInvoke() && cc.Method.Name() == "Apply" && len(cc.Args) >= 2 {
		if configOf(cc.Args[1], root, 8) || sameKind(cc.Args[1], root) && slices.ContainsFunc(keysOf(x.Parent(), root), func(k ssa.Value) bool { return configOf(cc.Args[1], k, 8) }) {
			return nil, x
		}
		return nil, nil
	}
	fn, roots := handedTo(x, root)
	if depth == 0 || fn == nil {
		return nil, nil
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			inner, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for r := range roots {
				if _, a := applies(inner, r, depth-1); a != nil {
					return fn, a
				}
			}
		}
	}
	return nil, nil
}

// keysOf returns what the keys of fn's Gets into root are taken from
// (req of req.NamespacedName): a configuration named from the same
// (widgetac.Widget(req.Name, req.Namespace)) is of root's object.
func keysOf(fn *ssa.Function, root ssa.Value) []ssa.Value {
	var keys []ssa.Value
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			g, ok := in.(ssa.CallInstruction)
			if !ok || calledName(g.Common()) != "Get" {
				continue
			}
			args := g.Common().Args
			for i := 1; i < len(args); i++ {
				if r, _ := objectRoot(args[i]); r == root {
					keys = append(keys, fieldRoot(args[i-1]))
				}
			}
		}
	}
	return keys
}

// sameKind reports whether the apply configuration v may be of root's
// kind: <Kind>ApplyConfiguration, or a type not named so.
func sameKind(v, root ssa.Value) bool {
	for {
		mi, ok := v.(*ssa.MakeInterface)
		if !ok {
			break
		}
		v = mi.X
	}
	cfg, kind := namedOf(v.Type()), namedOf(root.Type())
	if cfg == nil || kind == nil || !strings.HasSuffix(cfg.Obj().Name(), "ApplyConfiguration") {
		return true
	}
	return cfg.Obj().Name() == kind.Obj().Name()+"ApplyConfiguration"
}

// namedOf is the named type t is or points to (through a variable's
// cell), nil when none.
func namedOf(t types.Type) *types.Named {
	for range 3 {
		p, ok := t.(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
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
