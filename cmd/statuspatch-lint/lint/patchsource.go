package lint

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Patches that leave the function that builds them through a struct field
// or through a function of another package are followed here: a field by
// the values the package stores in it, a function of another package by
// the fact its own analysis exported.

// patchFuncFact records the verdicts of a function's client.Patch
// results, so that the packages calling it (the rest of the module, under
// any driver: go vet passes facts between its per-package runs) can
// classify the patches it returns.
type patchFuncFact struct {
	Results []patchResultFact
}

// patchResultFact is the verdict of one client.Patch result.
type patchResultFact struct {
	Index   int // the result's position
	Verdict int // a verdict
	Reason  string
}

// AFact marks patchFuncFact as an analysis fact.
func (*patchFuncFact) AFact() {}

func (f *patchFuncFact) String() string {
	parts := make([]string, len(f.Results))
	for i, r := range f.Results {
		parts[i] = fmt.Sprintf("%d: %s: %s", r.Index, verdict(r.Verdict), r.Reason)
	}
	return "patch(" + strings.Join(parts, "; ") + ")"
}

// exportPatchFuncs exports a patchFuncFact for each function or method of
// the package with a client.Patch result, classified by its returns.
func exportPatchFuncs(pass *analysis.Pass, cl *classifier, funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Blocks == nil {
			continue
		}
		var fact patchFuncFact
		results := fn.Signature.Results()
		for i := 0; i < results.Len(); i++ {
			if clientTypeName(results.At(i).Type()) != "Patch" {
				continue
			}
			var rs []result
			for _, r := range patchReturns(fn, i) {
				rs = append(rs, cl.classifyPatchValue(&write{}, r.Results[i], 0))
			}
			r := worst(rs)
			fact.Results = append(fact.Results, patchResultFact{Index: i, Verdict: int(r.verdict), Reason: r.reason})
		}
		if len(fact.Results) > 0 {
			pass.ExportObjectFact(obj, &fact)
		}
	}
}

// patchReturns are fn's returns that give result i as its patch: not a
// nil patch returned with a non-nil error (trust-manager's
// GenerateBundleStatusPatch returns nil only with its error), which a
// caller checking the error never sends, and which a caller sending it
// could not store. All of them when every return is such a one.
func patchReturns(fn *ssa.Function, i int) []*ssa.Return {
	all := returns(fn)
	last := fn.Signature.Results().Len() - 1
	if last <= i || !returnsError(fn.Signature) {
		return all
	}
	var rs []*ssa.Return
	for _, r := range all {
		if c, ok := r.Results[i].(*ssa.Const); ok && c.IsNil() {
			if e, ok := r.Results[last].(*ssa.Const); !ok || !e.IsNil() {
				continue
			}
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return all
	}
	return rs
}

// importedPatch classifies result idx of a call of a function of another
// package by its fact.
func (cl *classifier) importedPatch(c *ssa.CallCommon, idx int) (result, bool) {
	if c.IsInvoke() {
		return result{unresolved, "patch from interface method " + c.Method.Name() + " (a dynamic call is not followed)"}, true
	}
	fn := c.StaticCallee()
	if fn == nil || cl.pass == nil {
		return result{}, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == cl.pkg {
		return result{}, false
	}
	var fact patchFuncFact
	if !cl.pass.ImportObjectFact(obj.Origin(), &fact) {
		return result{}, false
	}
	for _, r := range fact.Results {
		if r.Index == idx {
			return result{verdict(r.Verdict), describeCall(c) + " returns " + r.Reason}, true
		}
	}
	return result{}, false
}

// fieldOf returns the struct field a FieldAddr or Field selects, as
// declared.
func fieldOf(v ssa.Value) *types.Var {
	var st types.Type
	var idx int
	switch v := v.(type) {
	case *ssa.FieldAddr:
		p, ok := types.Unalias(v.X.Type()).(*types.Pointer)
		if !ok {
			return nil
		}
		st, idx = p.Elem(), v.Field
	case *ssa.Field:
		st, idx = v.X.Type(), v.Field
	default:
		return nil
	}
	s, ok := st.Underlying().(*types.Struct)
	if !ok || idx >= s.NumFields() {
		return nil
	}
	// An instance of a generic struct may have Vars of its own (go/types
	// substitutes fields whose type mentions a type parameter): key on
	// the declared one.
	return s.Field(idx).Origin()
}

// fieldStores records, for each struct field, the values the package
// stores in it, and the fields whose address escapes elsewhere (passed
// to a call, stored): their values cannot all be seen.
func (cl *classifier) recordFieldStores(instr ssa.Instruction) {
	fa, ok := instr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	f := fieldOf(fa)
	if f == nil || clientTypeName(f.Type()) != "Patch" || fa.Referrers() == nil {
		return
	}
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == fa {
				cl.fieldVals[f] = append(cl.fieldVals[f], r.Val)
				continue
			}
		case *ssa.UnOp:
			continue // a load
		case *ssa.DebugRef:
			continue
		}
		cl.fieldEscapes[f] = true
	}
}

// fieldPatch classifies a patch loaded from a struct field by the values
// the package assigns to it: all optimistic or all blind give that
// verdict; anything else is unresolved, with the reason.
func (cl *classifier) fieldPatch(w *write, f *types.Var, depth int) result {
	name := "field " + f.Name()
	switch {
	case cl.fieldEscapes[f]:
		return result{unresolved, "patch from " + name + ", whose address is passed on (its assignments are not all visible)"}
	case len(cl.fieldVals[f]) == 0:
		return result{unresolved, "patch from " + name + " (no assignment in the package)"}
	case depth >= maxRawPatchDepth:
		return result{unresolved, "patch from " + name + " (assigned from fields too deep to follow)"}
	}
	var rs []result
	count := map[verdict]int{}
	for _, v := range cl.fieldVals[f] {
		r := cl.classifyPatchValue(w, v, depth+1)
		rs = append(rs, r)
		count[r.verdict]++
	}
	r := worst(rs)
	switch {
	case count[unresolved] > 0:
		return result{unresolved, name + " assigned " + r.reason}
	case count[blind] > 0 && count[optimistic] > 0:
		return result{unresolved, fmt.Sprintf("patch from %s, assigned %d blind and %d optimistic patches in the package", name, count[blind], count[optimistic])}
	}
	return result{r.verdict, name + " assigned " + r.reason}
}
