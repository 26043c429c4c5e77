package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A lock sends the resourceVersion of the patch's base: a base taken
// before another write of the same object on the status write's path
// (karpenter's nodeclaim lifecycle: stored := obj.DeepCopy(), a metadata
// c.Patch(ctx, obj, client.MergeFrom(stored)), then
// c.Status().Patch(ctx, statusCopy, client.MergeFrom(stored))) holds the
// resourceVersion that write moved whenever it changed anything, so the
// locked patch would conflict every time both change. Such a patch gets
// no lock; the finding names the write.

// staleLockBase says why the lock must not be added to the patch
// mergeFrom (client.MergeFrom(base), built at expr) of the status write
// w: the base is a copy taken in the function, and another Patch or
// Update of the object it copies may run after it is taken and before w,
// or before another write sending the same patch. "" when none may, or
// the base is no copy taken here (the object itself holds the
// resourceVersion each of its writes returns).
func staleLockBase(pass *analysis.Pass, files *fileSet, w *write, mergeFrom *ssa.Call, expr *ast.CallExpr) string {
	args := mergeFrom.Common().Args
	fn := w.instr.Parent()
	if len(args) == 0 || len(expr.Args) == 0 || fn == nil {
		return ""
	}
	root, taken := objectRoot(args[0])
	if taken == nil {
		// A base a literal captures (a deferred one's: it runs as the
		// function returns) is taken in the enclosing function: an apply
		// there before the literal runs moves the resourceVersion too.
		if _, free := root.(*ssa.FreeVar); free && len(w.args) > 1 {
			obj, _ := objectRoot(w.args[1])
			if x, via, apply := enclosingApply(fn, obj, token.NoPos, w.instr); x != nil {
				return appliedWhy(pass, x, via, apply)
			}
		}
		return ""
	}
	var writes, copyWrites, senders []ssa.CallInstruction
	for c := range callsOf(fn) {
		if !objectWrite(c.Common()) {
			continue
		}
		if r, copied := objectRoot(c.Common().Args[1]); r == root && copied == nil {
			writes = append(writes, c)
		} else if r == root {
			copyWrites = append(copyWrites, c)
		}
		if c == w.instr || len(c.Common().Args) > 2 && c.Common().Args[2] == ssa.Value(mergeFrom) {
			senders = append(senders, c)
		}
	}
	for _, y := range senders {
		for _, x := range writes {
			if x == y || !reaches(taken, x) || !reaches(x, y) {
				continue
			}
			xc, ok := files.calls[x.Pos()]
			if !ok || len(xc.Args) < 2 {
				continue
			}
			why := fmt.Sprintf("the base %s is taken at line %d, before the write of %s at line %d, which moves the resourceVersion a lock would send",
				types.ExprString(expr.Args[0]), pass.Fset.Position(taken.Pos()).Line, types.ExprString(xc.Args[1]), pass.Fset.Position(x.Pos()).Line)
			which := "this patch"
			if y != w.instr {
				why += fmt.Sprintf("; the same patch is sent again after it, at line %d", pass.Fset.Position(y.Pos()).Line)
				which = "that write"
			}
			return why + ": locked, " + which + " would conflict whenever both change; take the base after that write, or write the status first"
		}
	}
	for _, y := range senders {
		if why := appliedBefore(pass, fn, root, taken, y); why != "" {
			return why
		}
		for _, x := range copyWrites {
			// A write of a copy moves the resourceVersion on the
			// server, not in the object: a base taken after it
			// holds the older one too.
			if x != y && reaches(x, y) && !readAgain(fn, root, x, taken) {
				return fmt.Sprintf("a copy of the object is written at line %d, before this patch: that write moves the resourceVersion on the server, not in the object that %s copies, so a lock would send the older one and conflict whenever both change; read the object again after that write, or write the status first",
					pass.Fset.Position(x.Pos()).Line, types.ExprString(expr.Args[0]))
			}
		}
	}
	for _, y := range senders {
		for x := range callsOf(fn) {
			if x == y || !reaches(taken, x) || !reaches(x, y) {
				continue
			}
			if how := callWrite(pass, x, root, 3); how != "" {
				return fmt.Sprintf("the base %s is taken at line %d, before the call at line %d, which is given the object: %s, moving the resourceVersion a lock would send: locked, this patch would conflict whenever both change; take the base after that call, or write the status first",
					types.ExprString(expr.Args[0]), pass.Fset.Position(taken.Pos()).Line, pass.Fset.Position(x.Pos()).Line, how)
			}
		}
	}
	return ""
}

// objectRoot follows v back through interface conversions, type
// assertions and DeepCopy calls (a copy holds the original's
// resourceVersion) to the object it is a copy of, and returns the
// outermost copy's call: where the base is taken (nil when it is the
// object itself, taken before the function).
func objectRoot(v ssa.Value) (ssa.Value, ssa.Instruction) {
	var taken ssa.Instruction
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.UnOp:
			// A variable a literal captures: each use loads its cell.
			_, local := x.X.(*ssa.Alloc)
			_, free := x.X.(*ssa.FreeVar)
			if x.Op != token.MUL || !local && !free {
				return v, taken
			}
			v = x.X
		case *ssa.Call:
			c := x.Common()
			name := ""
			if f := c.StaticCallee(); f != nil && f.Signature.Recv() != nil {
				name = f.Name()
			} else if c.IsInvoke() {
				name = c.Method.Name()
			}
			if name != "DeepCopy" && name != "DeepCopyObject" {
				return v, taken
			}
			if taken == nil {
				taken = x
			}
			if c.IsInvoke() {
				v = c.Value
			} else {
				v = c.Args[0]
			}
		default:
			return v, taken
		}
	}
}

// objectWrite reports whether c is a client's Patch or Update of an
// object (the main resource or a subresource).
func objectWrite(c *ssa.CallCommon) bool {
	name := ""
	if c.IsInvoke() {
		name = c.Method.Name()
	} else if f := c.StaticCallee(); f != nil && f.Signature.Recv() != nil && isWriter(f.Signature.Recv().Type()) {
		name = f.Name() // a client's own method, not a helper's Patch (callWrite's)
	}
	return (name == "Patch" || name == "Update") && len(c.Args) >= 2
}
