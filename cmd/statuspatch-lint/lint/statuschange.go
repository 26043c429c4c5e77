package lint

import (
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A call counts as a status change for a base taken after it (latebase.go,
// migrate's statusOnlyChange) only when its callee changes the status of
// what it is given: ParamsFact's StatusOnly and Recv "statusOnly" say "at
// most the status", which a function that only reads it has too (s112:
// karpenter's object.GVK(nodePool) before stored := nodePool.DeepCopy()
// made its patch "empty" by d4979aa7). Changes and RecvChanges, found
// here on SSA and exported with the function's ParamsFact, say it does.

// exportStatusChanges adds to the ParamsFact of each function of the
// package whose object parameter (or receiver) changes at most its
// status the ones it does change.
func exportStatusChanges(pass *analysis.Pass, t *tracer, funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Blocks == nil {
			continue
		}
		var fact migrate.ParamsFact
		if !pass.ImportObjectFact(obj, &fact) || len(fact.StatusOnly) == 0 && fact.Recv != "statusOnly" {
			continue
		}
		off := 0
		if fn.Signature.Recv() != nil {
			off = 1
			fact.RecvChanges = fact.Recv == "statusOnly" && len(fn.Params) > 0 && changesStatus(pass, t, fn, fn.Params[0], 0)
		}
		fact.Changes = nil
		for _, i := range fact.StatusOnly {
			if i+off < len(fn.Params) && changesStatus(pass, t, fn, fn.Params[i+off], 0) {
				fact.Changes = append(fact.Changes, i)
			}
		}
		pass.ExportObjectFact(obj, &fact)
	}
}

// changesStatus reports whether fn may change the status of p, its
// parameter: a store through p's status, its status field's address
// handed to a call (meta.SetStatusCondition(&p.Status.Conditions, c)),
// or p handed to a function or method that changes it (by its body in
// the package, as deep as kube.MaxDepth; by its ParamsFact in another).
func changesStatus(pass *analysis.Pass, t *tracer, fn *ssa.Function, p ssa.Value, depth int) bool {
	if depth > kube.MaxDepth {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && throughStatus(fa) && t.fieldRoot(fa) == p {
					return true
				}
			case ssa.CallInstruction:
				c := instr.Common()
				if changesStatusOf(t, c, p) {
					return true
				}
				g := c.StaticCallee()
				if g == nil || g == fn {
					continue
				}
				for j, a := range c.Args {
					if t.identity(a) == p && calleeChanges(pass, t, g, j, depth) {
						return true
					}
				}
			}
		}
	}
	return false
}

// calleeChanges reports whether g changes the status of its j-th SSA
// argument (a method's receiver first).
func calleeChanges(pass *analysis.Pass, t *tracer, g *ssa.Function, j, depth int) bool {
	if g.Pkg != nil && g.Pkg.Pkg == pass.Pkg && g.Blocks != nil {
		return j < len(g.Params) && changesStatus(pass, t, g, g.Params[j], depth+1)
	}
	obj, ok := g.Object().(*types.Func)
	var fact migrate.ParamsFact
	if !ok || !pass.ImportObjectFact(obj.Origin(), &fact) {
		return false
	}
	if g.Signature.Recv() != nil {
		if j == 0 {
			return fact.RecvChanges
		}
		j--
	}
	return slices.Contains(fact.Changes, j)
}
