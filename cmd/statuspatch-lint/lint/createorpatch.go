package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// controllerutil.CreateOrPatch (controller-runtime v0.22 to v0.25) Gets
// the object, runs its mutate, patches the rest of the object, then sends
// c.Status().Patch(ctx, obj, client.MergeFrom(before)) when the mutate
// changed the status: a merge patch of what changed since the cache's
// read, without a resourceVersion when only the status changed, else with
// the one the patch of the rest returned (MergeFrom sends the changed
// metadata.resourceVersion), which a status written between the Get and
// that patch does not conflict with. Either way a status decided in the
// mutate overwrites one written since the read: a blind status write no
// call of the package spells (issue 80, project E's Register). On create
// it writes no status (Create drops it where the kind has a status
// subresource). CreateOrUpdate writes no status blind: its Update of the
// main resource sends the resourceVersion it read, and the server ignores
// the status there where the kind has a status subresource.

const controllerutilPath = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

// mutateChange is what CreateOrPatch's mutate does to the object's
// status: a change at at (in the package's function in, "" for the
// mutate itself), or, when it cannot be shown, why (unknown).
type mutateChange struct {
	at      token.Pos
	in      string
	unknown string
}

func (m mutateChange) changes() bool { return m.at.IsValid() }

// matchCreateOrPatch matches controllerutil.CreateOrPatch(ctx, c, obj, f)
// whose f changes, or may change, obj's status: a write of verb
// CreateOrPatch whose args are ctx and obj.
func matchCreateOrPatch(t *tracer, c *ssa.CallCommon) *write {
	fn := c.StaticCallee()
	if fn == nil || fn.Object() == nil || fn.Object().Pkg() == nil || fn.Object().Pkg().Path() != controllerutilPath ||
		fn.Name() != "CreateOrPatch" || len(c.Args) != 4 {
		return nil
	}
	if noStatus(c.Args[2]) {
		return nil
	}
	ch := t.mutateOf(c.Args[3], c.Args[2])
	if !ch.changes() && ch.unknown == "" {
		return nil
	}
	return &write{verb: "CreateOrPatch", via: viaMutate, recvName: "controllerutil",
		args: []ssa.Value{c.Args[0], c.Args[2]}, kind: t.objectKind(c.Args[2], false), mutate: ch}
}

// noStatus reports whether obj is of a concrete type without a Status
// field (a ConfigMap): CreateOrPatch patches no status of it.
func noStatus(obj ssa.Value) bool {
	if mi, ok := obj.(*ssa.MakeInterface); ok {
		obj = mi.X
	}
	if types.IsInterface(obj.Type()) {
		return false
	}
	f, _, _ := types.LookupFieldOrMethod(obj.Type(), true, nil, "Status")
	_, isVar := f.(*types.Var)
	return !isVar
}

// mutateOf follows the mutate f to what it does to obj's status: a
// literal of the function is followed, with the package's functions it
// hands the object to; any other mutate is unknown.
func (t *tracer) mutateOf(f, obj ssa.Value) mutateChange {
	root, _ := objectRoot(obj)
	var unknown string
	for _, leaf := range mutateLeaves(f) {
		switch l := leaf.(type) {
		case *ssa.Const:
			continue // nil: no mutate
		case *ssa.Function:
			if l.Parent() != nil {
				continue // a literal capturing nothing: it cannot reach the object
			}
			unknown = describeMutate(leaf)
		case *ssa.MakeClosure:
			fn, ok := l.Fn.(*ssa.Function)
			if !ok || fn.Parent() == nil {
				unknown = fmt.Sprintf("the method value %s", strings.TrimSuffix(l.Fn.Name(), "$bound"))
				continue
			}
			roots := map[ssa.Value]bool{}
			for i, b := range l.Bindings {
				if r, _ := objectRoot(b); r == root && i < len(fn.FreeVars) {
					roots[fn.FreeVars[i]] = true
				}
			}
			if len(roots) == 0 {
				// It reaches the object only through what it captures.
				if slices.ContainsFunc(fn.FreeVars, func(fv *ssa.FreeVar) bool { return migrate.HoldsRefs(fv.Type()) }) {
					unknown = fmt.Sprintf("the literal at line %d, which does not capture the object itself", fn.Prog.Fset.Position(fn.Pos()).Line)
				}
				continue
			}
			ch := statusChangeIn(fn, roots, 3)
			if ch.changes() {
				return ch
			}
			if ch.unknown != "" {
				unknown = ch.unknown
			}
		case *ssa.Call:
			ch, ok := returnedMutate(l, root)
			switch {
			case !ok:
				unknown = describeMutate(leaf)
			case ch.changes():
				return ch
			case ch.unknown != "":
				unknown = ch.unknown
			}
		default:
			unknown = describeMutate(leaf)
		}
	}
	return mutateChange{unknown: unknown}
}

// mutateLeaves is where the mutate value comes from in its function:
// through conversions and phis.
func mutateLeaves(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.ChangeType:
			walk(x.X)
		case *ssa.MakeInterface:
			walk(x.X)
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
		default:
			out = append(out, v)
		}
	}
	walk(v)
	return out
}

// describeMutate names a mutate the analyzer does not follow.
func describeMutate(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.Parameter:
		return "the parameter " + x.Name()
	case *ssa.FreeVar:
		return "the captured " + x.Name()
	case *ssa.Function:
		return "the function " + x.Name()
	case *ssa.Call:
		return "the value " + callName(x.Common()) + " returns"
	}
	if v.Pos().IsValid() {
		return fmt.Sprintf("the value at line %d", v.Parent().Prog.Fset.Position(v.Pos()).Line)
	}
	return "a function value"
}

// statusChangeIn finds in fn a change of the status of roots (fn's
// values of the object): a store through its Status, a call given the
// address of a status field, the object replaced, or such a change in a
// function of the package fn hands it to; unknown names a call given the
// object that the analyzer cannot see into.
func statusChangeIn(fn *ssa.Function, roots map[ssa.Value]bool, depth int) mutateChange {
	var unknown string
	line := func(p token.Pos) int { return fn.Prog.Fset.Position(p).Line }
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.MakeClosure:
				// A literal of fn capturing the object (deferred, called
				// there, or kept): its change is the mutate's.
				if ch := closureChange(in, roots, depth); ch.changes() {
					return ch
				} else if ch.unknown != "" {
					unknown = ch.unknown
				}
			case *ssa.Store:
				if fa, ok := in.Addr.(*ssa.FieldAddr); ok && throughStatus(fa) && roots[fieldAddrRoot(fa)] {
					return mutateChange{at: in.Pos()}
				}
				if _, whole := in.Val.Type().Underlying().(*types.Struct); whole {
					if r, _ := objectRoot(in.Addr); roots[r] {
						return mutateChange{at: in.Pos()} // *obj = ...: the status with it
					}
				}
			case ssa.CallInstruction:
				cc := in.Common()
				given := false
				for _, a := range cc.Args {
					if fa, ok := a.(*ssa.FieldAddr); ok && throughStatus(fa) && roots[fieldAddrRoot(fa)] {
						return mutateChange{at: in.Pos()}
					}
					r, _ := objectRoot(a)
					given = given || roots[r]
				}
				if cc.IsInvoke() {
					r, _ := objectRoot(cc.Value)
					given = given || roots[r]
				}
				if !given {
					continue
				}
				followed := false
				for _, r := range rootOrder(fn, roots) {
					inner, innerRoots := handedTo(in, r)
					if inner == nil {
						continue
					}
					followed = true
					if depth == 0 {
						unknown = fmt.Sprintf("%s at line %d, not followed further", funcName(inner), line(in.Pos()))
						continue
					}
					ch := statusChangeIn(inner, innerRoots, depth-1)
					if ch.changes() {
						if ch.in == "" {
							ch.in = funcName(inner)
						}
						return ch
					}
					if ch.unknown != "" {
						unknown = ch.unknown
					}
				}
				if !followed && !keepsStatus(cc, roots) {
					unknown = fmt.Sprintf("%s at line %d is given the object, out of sight", calleeName(cc), line(in.Pos()))
				}
			}
		}
	}
	return mutateChange{unknown: unknown}
}

// closureChange is the change of the status of roots a literal made
// in fn (mc) makes, given the values of the object it captures.
func closureChange(mc *ssa.MakeClosure, roots map[ssa.Value]bool, depth int) mutateChange {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return mutateChange{}
	}
	inner := map[ssa.Value]bool{}
	for i, b := range mc.Bindings {
		if r, _ := objectRoot(b); (roots[r] || roots[b]) && i < len(fn.FreeVars) {
			inner[fn.FreeVars[i]] = true
		}
	}
	if len(inner) == 0 || depth == 0 {
		return mutateChange{}
	}
	return statusChangeIn(fn, inner, depth-1)
}

// calleeName names a call's function in a reason: a method as such.
func calleeName(cc *ssa.CallCommon) string {
	if f := cc.StaticCallee(); f != nil && f.Signature.Recv() != nil {
		return "the method " + f.Name()
	}
	return callName(cc)
}

// fieldAddrRoot is the object a field address is taken in.
func fieldAddrRoot(fa *ssa.FieldAddr) ssa.Value {
	var v ssa.Value = fa
	for {
		f, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		v = f.X
	}
	r, _ := objectRoot(v)
	return r
}

// keepsStatus reports whether a call given the object cannot change its
// status: controllerutil's helpers (SetControllerReference, AddFinalizer)
// and ctrl's aliases of them, a getter or DeepCopy called on it, a method
// of the metadata interfaces (SetLabels).
func keepsStatus(cc *ssa.CallCommon, roots map[ssa.Value]bool) bool {
	if cc.IsInvoke() {
		name := cc.Method.Name()
		if r, _ := objectRoot(cc.Value); roots[r] && (strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "DeepCopy")) {
			return true
		}
		p := cc.Method.Pkg()
		return p != nil && strings.HasPrefix(p.Path(), "k8s.io/apimachinery/")
	}
	if g, ok := globalLoad(cc.Value); ok {
		return g.Pkg != nil && g.Pkg.Pkg.Path() == "sigs.k8s.io/controller-runtime" && strings.HasPrefix(g.Name(), "Set")
	}
	callee := cc.StaticCallee()
	if callee == nil || callee.Object() == nil || callee.Object().Pkg() == nil {
		return false
	}
	if callee.Object().Pkg().Path() == controllerutilPath {
		return !strings.HasPrefix(callee.Name(), "CreateOr")
	}
	if callee.Signature.Recv() != nil && len(cc.Args) > 0 {
		r, _ := objectRoot(cc.Args[0])
		name := callee.Name()
		return roots[r] && (strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "DeepCopy"))
	}
	return false
}

// globalLoad is the package variable a function value is loaded from.
func globalLoad(v ssa.Value) (*ssa.Global, bool) {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		g, ok := u.X.(*ssa.Global)
		return g, ok
	}
	return nil, false
}

// mutateResult is the verdict of CreateOrPatch's status patch: blind
// when the mutate changes the status, unresolved when that is not known.
func mutateResult(w *write) result {
	const sent = "CreateOrPatch patches it with client.MergeFrom: with no resourceVersion when the mutate changed only the status, else with the one its patch of the rest returned, so what the mutate decided overwrites a status written between its Get and that patch (one written after that patch gets a 409)"
	if w.mutate.changes() {
		return result{blind, fmt.Sprintf("its mutate changes the status at %s, and %s", w.mutate.where(w), sent)}
	}
	return result{unresolved, fmt.Sprintf("its mutate (%s) is not followed: it may change the status, and %s", w.mutate.unknown, sent)}
}

// where is "line N", with the function of the package it is in.
func (m mutateChange) where(w *write) string {
	s := fmt.Sprintf("line %d", w.instr.Parent().Prog.Fset.Position(m.at).Line)
	if m.in != "" {
		s += " (in " + m.in + ")"
	}
	return s
}

// mutateMessage is the default mode's finding of CreateOrPatch's status
// patch: what it writes, and the patcher to use.
func mutateMessage(pass *analysis.Pass, w *write, r result, given []patcherInfo) string {
	use := handwrittenMessage(pass, w.kind, given, "")
	if _, after, ok := strings.Cut(use, ": "); ok {
		use = after
	}
	return fmt.Sprintf("status write by %s to %s: %s: %s", w.label(), w.kind.name, r.reason, use)
}

// mutateMove is -fix's move of CreateOrPatch's status patch: the
// mutate's status statements made in the kind's patcher's Retry after
// the call (migrate.CreateOrPatch), or why they stay.
func mutateMove(pass *analysis.Pass, files *fileSet, cfg Config, w *write) (*analysis.SuggestedFix, string) {
	call, ok := files.calls[w.pos]
	p, found := findPatcherIn(pass, w.kind, cfg.patchers)
	if !w.mutate.changes() || !ok || !found || w.kind.iface {
		return nil, mutateKept(w, "")
	}
	fix, why := migrate.CreateOrPatch(pass, files.migrateFiles(), migrate.CreateOrPatchMove{
		Call: call, Patcher: migrate.Patcher{Type: p.Type, Pkg: p.Pkg, Into: p.Into}})
	if fix == nil {
		return nil, mutateKept(w, why)
	}
	return fix, ""
}

// mutateKept is why -fix leaves CreateOrPatch's status patch: a mutate
// it cannot follow, or a status decision it cannot move as the same
// decision (why); the advice says where to make it.
func mutateKept(w *write, why string) string {
	patcher := "New" + w.kind.name + "StatusPatcher(c, obj)"
	if w.kind.iface {
		patcher = "the kind's New<Kind>StatusPatcher(c, obj)"
	}
	advice := fmt.Sprintf("after CreateOrPatch, when it returns no error and did not create the object (it writes no status then), make it in %s's Retry, which sends it with the resourceVersion and decides again on a 409 (a call with a side effect there made once, with sync.OnceValue)", patcher)
	if !w.mutate.changes() {
		return "-fix does not move a status decision out of a mutate it does not follow: move the status change out of it, and " + advice
	}
	what := "the status change at " + w.mutate.where(w)
	if why == "" {
		return fmt.Sprintf("-fix does not move %s out of the mutate: move it, and %s", what, advice)
	}
	return fmt.Sprintf("-fix keeps %s in the mutate: %s: move it out by hand, and %s", what, why, advice)
}
