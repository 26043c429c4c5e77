package lint

import (
	"go/types"
	"slices"

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
	sc := &statusChanges{pass: pass, t: t, seen: map[*ssa.Parameter]bool{}, known: map[*ssa.Parameter]bool{}}
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
			fact.RecvChanges = fact.Recv == "statusOnly" && len(fn.Params) > 0 && sc.param(fn.Params[0])
		}
		fact.Changes = nil
		for _, i := range fact.StatusOnly {
			if i+off < len(fn.Params) && sc.param(fn.Params[i+off]) {
				fact.Changes = append(fact.Changes, i)
			}
		}
		pass.ExportObjectFact(obj, &fact)
	}
}

// statusChanges answers, once per parameter, whether a function of the
// package may change the status of its parameter: a cycle of calls
// (A hands it to B, B back to A) adds nothing.
type statusChanges struct {
	pass  *analysis.Pass
	t     *tracer
	seen  map[*ssa.Parameter]bool // asked: in progress or known
	known map[*ssa.Parameter]bool
}

// param reports whether p's function may change the status of p: a
// store through p's status, its status field's address handed to a call
// (meta.SetStatusCondition(&p.Status.Conditions, c)), or p handed to a
// function or method that changes it (by its body in the package; by its
// ParamsFact in another).
func (sc *statusChanges) param(p *ssa.Parameter) bool {
	if sc.seen[p] {
		return sc.known[p]
	}
	sc.seen[p] = true
	fn := p.Parent()
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && throughStatus(fa) && sc.t.fieldRoot(fa) == p {
					sc.known[p] = true
				}
			case ssa.CallInstruction:
				c := instr.Common()
				if changesStatusOf(sc.t, c, p) {
					sc.known[p] = true
					break
				}
				g := c.StaticCallee()
				if g == nil {
					continue
				}
				for j, a := range c.Args {
					if sc.t.identity(a) == p && sc.callee(g, j) {
						sc.known[p] = true
					}
				}
			}
			if sc.known[p] {
				return true
			}
		}
	}
	return false
}

// callee reports whether g changes the status of its j-th SSA argument
// (a method's receiver first).
func (sc *statusChanges) callee(g *ssa.Function, j int) bool {
	if g.Pkg != nil && g.Pkg.Pkg == sc.pass.Pkg && g.Blocks != nil {
		return j < len(g.Params) && sc.param(g.Params[j])
	}
	obj, ok := g.Object().(*types.Func)
	var fact migrate.ParamsFact
	if !ok || !sc.pass.ImportObjectFact(obj.Origin(), &fact) {
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
