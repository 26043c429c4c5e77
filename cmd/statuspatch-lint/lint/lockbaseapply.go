package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// An apply of the object by the lock's model (issue 80): a server-side
// apply of a configuration built from the object's fields, or named by
// the key it was read with, in the function, in a function of the package
// or literal given or capturing it (handedTo), or, for a patch in a
// literal, in the enclosing function (lockbasequery.go). The lint's lock
// and -fix's patcher (migrate.Files.Applied) both ask it.

// appliedBefore says why the lock must not be added to a patch whose base
// copies root: a server-side apply of root's object (its configuration
// built from root's fields: widgetac.Widget(w.Name, w.Namespace)) runs
// before the patch is sent. The apply moves the resourceVersion on the
// server, not in root, so a base taken before or after it holds the older
// one, and the locked patch would conflict whenever the apply changes
// anything; "" when none does.
func appliedBefore(pass *analysis.Pass, fn *ssa.Function, root ssa.Value, taken, y ssa.Instruction) string {
	for x := range callsOf(fn) {
		if x == y || !reaches(x, y) {
			continue
		}
		if via, apply := applies(x, root, 2); apply != nil && !readAgain(fn, root, x, taken) {
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
	for inner := range callsOf(fn) {
		for _, r := range rootOrder(fn, roots) {
			if _, a := applies(inner, r, depth-1); a != nil {
				return fn, a
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
	for g := range callsOf(fn) {
		args := g.Common().Args
		for i := 1; i < len(args) && calledName(g.Common()) == "Get"; i++ {
			if r, _ := objectRoot(args[i]); r == root {
				keys = append(keys, fieldRoot(args[i-1]))
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
	for g := range callsOf(fn) {
		if g != x && reaches(x, g) && reaches(g, taken) && gets(g, root) {
			return true
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
