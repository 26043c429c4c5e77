package lint

import (
	"fmt"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A function of another package given a client beside the object may
// update it out of sight, so callWrite takes the lock off a base taken
// before the call. Its own package's analysis sees its body: readsFact
// lists the object parameters the lock's model finds it only reads (no
// Patch or Update of them, no apply, no call given them that may write
// them: bodyWrite, applies; nor kept past the call, where what it
// returns could write them later), and a caller's lock then stays. cluster-api's
// patch.NewHelper(obj, c) is the real case: it keeps a copy of obj and
// writes only in its own Patch, later. Exported only for an exported
// function given both a client and an object: the calls callWrite asks
// about.

// readsFact lists, by SSA parameter (a method's receiver first), the
// object parameters a function only reads.
type readsFact struct {
	Params []int
}

// AFact marks readsFact as an analysis fact.
func (*readsFact) AFact() {}

func (f *readsFact) String() string { return fmt.Sprintf("readsOnly%v", f.Params) }

// exportReadsFacts exports a readsFact for each exported function of the
// package given a client that only reads an object it is given.
func exportReadsFacts(pass *analysis.Pass, funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Blocks == nil || !obj.Exported() || !slices.ContainsFunc(fn.Params, func(p *ssa.Parameter) bool { return isWriter(p.Type()) }) {
			continue
		}
		var fact readsFact
		for i, p := range fn.Params {
			if !isWriter(p.Type()) && isObject(p.Type()) && !escapes(p, 4) && !writesParam(pass, fn, p) {
				fact.Params = append(fact.Params, i)
			}
		}
		if len(fact.Params) > 0 {
			pass.ExportObjectFact(obj, &fact)
		}
	}
}

// writesParam reports whether fn may write or apply its parameter p, by
// the lock's model.
func writesParam(pass *analysis.Pass, fn *ssa.Function, p *ssa.Parameter) bool {
	if bodyWrite(pass, fn, fn.Name(), map[ssa.Value]bool{p: true}, 3) != "" {
		return true
	}
	for c := range callsOf(fn) {
		if _, a := applies(c, p, 2); a != nil {
			return true
		}
	}
	return false
}

// escapes reports whether v (a parameter, or a conversion of it) may
// outlive the call: stored, returned, captured, sent, merged at a phi, or
// handed to a call whose results may hold it (a function of the package
// is followed to its parameter; a method called on the object itself, a
// getter or a DeepCopy, keeps nothing of it). A function keeping the
// object (a generated patcher's constructor) may write it later, through
// what it returns, with no call given it.
func escapes(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Val == v {
				return true
			}
		case *ssa.Return, *ssa.MakeClosure, *ssa.Phi, *ssa.Send, *ssa.MapUpdate, *ssa.Slice:
			return true
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.TypeAssert:
			if depth == 0 || escapes(r.(ssa.Value), depth-1) {
				return true
			}
		case ssa.CallInstruction:
			if depth == 0 || handedOn(r, v, depth) {
				return true
			}
		}
	}
	return false
}

// handedOn reports whether the call c, given v, may keep it past itself.
func handedOn(c ssa.CallInstruction, v ssa.Value, depth int) bool {
	cc := c.Common()
	callee := cc.StaticCallee()
	for i, a := range cc.Args {
		if a != v {
			continue
		}
		if i == 0 && callee != nil && callee.Signature.Recv() != nil {
			continue // a method of the object itself
		}
		if callee != nil && callee.Blocks != nil && callee.Pkg == c.Parent().Pkg && i < len(callee.Params) {
			if escapes(callee.Params[i], depth-1) {
				return true
			}
			continue
		}
		if _, isGo := c.(*ssa.Go); isGo || resultsHoldRefs(cc.Signature()) {
			return true
		}
	}
	return false
}

// resultsHoldRefs reports whether a call's results (sig's) may hold a
// reference (migrate.HoldsRefs), an error aside: a check returning
// (schema.GroupVersionKind, error) keeps nothing of what it is given.
func resultsHoldRefs(sig *types.Signature) bool {
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		if t := res.At(i).Type(); !types.Identical(t, types.Universe.Lookup("error").Type()) && migrate.HoldsRefs(t) {
			return true
		}
	}
	return false
}

// readsOnly reports whether callee, a function of another package, only
// reads its parameter i, by its package's readsFact.
func readsOnly(pass *analysis.Pass, callee *ssa.Function, i int) bool {
	if callee == nil || pass == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
		return false
	}
	var fact readsFact
	return pass.ImportObjectFact(obj.Origin(), &fact) && slices.Contains(fact.Params, i)
}

// isObject reports whether t may hold an object: it has an object's
// GetResourceVersion (a pointer to a kind, client.Object).
func isObject(t types.Type) bool {
	return types.NewMethodSet(t).Lookup(nil, "GetResourceVersion") != nil
}
