package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// A method of an interface called on the object itself (a conditions
// helper's obj.GetConditions(), obj a Conditioned of the module: issue
// 80) runs the method of whichever type the object is. As for the object
// given as an argument (paramsimplsmodule.go), only the module can give
// such a value when the interface is closed to it; the whole-module
// driver assumes the call and then judges it by every implementation it
// sees (lint.ResolveIfaceCalls): each must change at most the status of
// its receiver and return only references into its status (ParamsFact
// Recv and StatusRefs: GetConditions() *[]metav1.Condition { return
// &c.Status.Conditions }), so what the call returns is followed as the
// status. The method's signature need not name a type of the module:
// the driver also looks for implementations in the packages of other
// modules the program holds. In a function of another package (the
// helper's own), the assumption goes with its ParamsFact
// (StatusOnlyIf), and a caller's write under the module's driver takes
// it on. A per-package pass assumes nothing: the write stays, as before.

// AssumedParam is ParamsFact.StatusOnlyIf of one parameter: it changes
// at most the status of what it is given when the interface calls made
// on it do.
type AssumedParam struct {
	Index int
	Calls []IfaceCall
}

// recvArg is IfaceCall.Arg of a call made on the object itself.
const recvArg = -1

// moduleAssumed is where calls on the object of an interface's method
// are assumed: the module's driver's list, nil under any other.
func moduleAssumed(opts Options) *[]IfaceCall {
	if !opts.Module {
		return nil
	}
	return opts.Assumed
}

// assumeRecv records the call of the interface method s selects on the
// object (sel's X) for the module's driver, when it collects and the
// interface is closed to the module.
func (pl *place) assumeRecv(s *types.Selection, sel *ast.SelectorExpr) bool {
	if pl.recvAssumed == nil || s.Kind() != types.MethodVal || pl.pass.Module == nil || pl.pass.Module.Path == "" {
		return false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || !isIfaceMethod(fn) {
		return false
	}
	iface, _ := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	if iface == nil || !closed(fn, iface, pl.pass.Module.Path) {
		return false
	}
	c := IfaceCall{Method: fn.Name(), Iface: fn.FullName(), At: pl.where(sel.Sel.Pos()), Arg: recvArg}
	for m := range iface.Methods() {
		c.Sigs = append(c.Sigs, methodSig(m))
	}
	*pl.recvAssumed = append(*pl.recvAssumed, c)
	return true
}

// leavesRecv is IfaceCall.Leaves of a call on the object: the method
// changes at most its receiver's status and returns only references into
// it.
func leavesRecv(f *ParamsFact) (bool, string) {
	switch {
	case f.RecvWhy != "":
		return false, f.RecvWhy
	case f.Recv != "statusOnly" && f.Recv != "reads":
		return false, ""
	case !f.StatusRefs:
		return false, "what it returns may hold a reference outside the status"
	}
	return true, ""
}

// assumedStatusOnly reports whether argument arg of fn, of another
// package, changes at most the status when the interface calls its fact
// assumes do (ParamsFact.StatusOnlyIf), and takes them on for the
// module's driver.
func (m checks) assumedStatusOnly(fact *ParamsFact, arg int) bool {
	if m.assumed == nil || !m.module {
		return false
	}
	i := slices.IndexFunc(fact.StatusOnlyIf, func(a AssumedParam) bool { return a.Index == arg })
	if i < 0 {
		return false
	}
	*m.assumed = append(*m.assumed, fact.StatusOnlyIf[i].Calls...)
	return true
}

// assuming checks an object parameter for its ParamsFact, assuming the
// interface calls made on it, then not.
type assuming struct{ *migration }

// uses is checkUses of the object parameter p (the i-th) of fd,
// for its ParamsFact, with m's holding and returning made for it: when
// the check assuming the interface calls made on p finds it changes at
// most the status, and the check without them does not, StatusOnlyIf
// records them, and the reason is the latter's, for a per-package pass;
// a reason the former finds holds whatever the calls run, and is given.
func (m assuming) uses(fact *ParamsFact, fd *ast.FuncDecl, p *types.Var, i int) string {
	var calls []IfaceCall
	m.recvAssumed = &calls
	m.holding, m.returning = &holding{fd: fd}, &returning{body: fd.Body}
	why := m.checks().checkUses(fd.Body, p, fd.Body.Pos(), fd.Body.End(), 1)
	m.recvAssumed = nil
	if len(calls) == 0 {
		return why
	}
	if why != "" {
		return why // it holds whatever the calls run
	}
	if !m.returning.returned && len(m.holding.out) == 0 {
		fact.StatusOnlyIf = append(fact.StatusOnlyIf, AssumedParam{Index: i, Calls: calls})
	}
	m.holding, m.returning = &holding{fd: fd}, &returning{body: fd.Body}
	return m.checks().checkUses(fd.Body, p, fd.Body.Pos(), fd.Body.End(), 1)
}

// OnObject reports whether c is a call made on the object itself.
func (c IfaceCall) OnObject() bool { return c.Arg == recvArg }

// Use says how the object meets c's call, for a reason: "it is passed to
// (pkg.Iface).M at line N", or "(pkg.Iface).M is called on it at ...".
func (c IfaceCall) Use() string {
	if c.OnObject() {
		return fmt.Sprintf("%s is called on it at %s", c.Iface, c.At)
	}
	return fmt.Sprintf("it is passed to %s at %s", c.Iface, c.At)
}

// unsent is unsentParam of p, whose reason, when the check
// assuming the interface calls made on p finds one, is that check's: it
// holds whatever the calls run.
func (m assuming) unsent(fd *ast.FuncDecl, p *types.Var, i int, unsent []int, whys []ParamWhy) ([]int, []ParamWhy) {
	var calls []IfaceCall
	m.recvAssumed = &calls
	_, assumed := m.unsentParam(fd, p, i, nil, nil)
	m.recvAssumed = nil
	if len(calls) > 0 && len(assumed) > 0 {
		return unsent, append(whys, assumed...)
	}
	return m.unsentParam(fd, p, i, unsent, whys)
}
