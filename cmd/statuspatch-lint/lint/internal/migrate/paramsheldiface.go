package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// A holder of the object passed to a method of an interface: karpenter's
// consistency controller calls c.recorder.Publish(FailedConsistencyCheckEvent(nodeClaim, ...)),
// an events.Event whose InvolvedObject is the NodeClaim. Which
// implementation runs there is the module driver's to see, as for the
// object itself (paramsimplsmodule.go): the fix assumes the call
// (IfaceCall.Field names the holder's field), and the driver keeps the
// write unless every type of the module with the interface's methods only
// reads what its method's parameter holds there, by ParamsFact.HeldParams:
// each parameter of a method that is a holder (a struct with a field an
// object may be, or a slice of them, a variadic ...Event included),
// followed through the body as a holder made in it is (paramHeld: its
// fields read, the held object given only to readers, kept only in
// unexported fields whose every use does the same). A method called on
// the held object through its interface, or anything else done with it,
// is named in HeldParams' Why and keeps the write. An implementation in a
// _test.go file does not count: it is compiled only into its package's
// test binary, never into the operator's (ondisk.UnseenMethods). A
// per-package pass, or an interface other modules may implement
// (exported, outside internal/, with no unexported method), keeps the
// write, naming it.

// ifaceHeld judges the holder passed as argument arg of call, a call of
// the interface method fn, of the object in field: ok when the module's
// driver will resolve it; else why (after "it is passed to fn at line").
func (h held) ifaceHeld(call *ast.CallExpr, fn *types.Func, arg int, field string) (ok bool, why string) {
	if call.Ellipsis.IsValid() {
		return false, fmt.Sprintf("in a slice, which -fix does not follow with what it holds (%s is a method of an interface)", fn.Name())
	}
	if h.impls().assume(call, fn, arg, field) {
		return true, ""
	}
	iface, _ := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	known := h.pass.Module != nil && h.pass.Module.Path != ""
	switch {
	case known && iface != nil && !closed(fn, iface, h.pass.Module.Path):
		return false, fmt.Sprintf("(%s is a method of an interface other modules may implement: exported, outside internal/, every method exported; which implementation runs there is not followed)", fn.Name())
	case !h.module || h.assumed == nil:
		return false, fmt.Sprintf("(%s is a method of an interface: which implementation runs there is followed only by statuspatch-lint -fix on the whole module)", fn.Name())
	case !known:
		return false, fmt.Sprintf("(%s is a method of an interface, and the package's module is not known)", fn.Name())
	}
	return false, fmt.Sprintf("(%s is a method of an interface whose signature names no type of the module: other modules may implement it)", fn.Name())
}

// leavesHeld is Leaves of a call given a holder of the object in c.Field:
// the implementation's parameter only reads what it holds there.
func (c IfaceCall) leavesHeld(f *ParamsFact) (bool, string) {
	for _, h := range f.HeldParams {
		if h.Index != c.Arg || h.Field != c.Field {
			continue
		}
		switch {
		case h.Why != "":
			return false, h.Why
		case len(h.Calls) > 0:
			return false, fmt.Sprintf("it calls %s on what its %s holds through its interface, at %s, which -fix does not follow there", h.Calls[0].Name, c.Field, h.Calls[0].At)
		}
		return true, ""
	}
	return false, fmt.Sprintf("-fix has no summary of what it does with what its parameter holds in %s", c.Field)
}

// heldParams is ParamsFact.HeldParams of the parameter p (position i) of
// fd: for each field a holder of its type (or of its slice's elements)
// may hold an object in, what fd does with it there (paramHeld).
func (h held) heldParams(fd *ast.FuncDecl, p *types.Var, i int) []Held {
	if fd.Recv == nil {
		return nil // only a method implements an interface
	}
	t := p.Type()
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	var out []Held
	for _, field := range objectFields(t) {
		calls, why := h.paramHeld(fd, p, field, nil)
		hd := Held{Index: i, Field: field, Calls: calls, Why: why}
		if why != "" {
			hd.Calls = nil
		}
		out = append(out, hd)
	}
	return out
}

// unusedHeld is HeldParams of a parameter of type t (a holder, or a slice
// of them) that has no uses: unnamed, or _.
func unusedHeld(fd *ast.FuncDecl, t types.Type, i int) []Held {
	if fd.Recv == nil {
		return nil
	}
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	var out []Held
	for _, field := range objectFields(t) {
		out = append(out, Held{Index: i, Field: field})
	}
	return out
}

// firstName is the first of names, nil when there is none.
func firstName(names []*ast.Ident) *ast.Ident {
	if len(names) == 0 {
		return nil
	}
	return names[0]
}

// heldParamsText is HeldParams for String.
func heldParamsText(f *ParamsFact) []string {
	var parts []string
	for _, h := range f.HeldParams {
		parts = append(parts, fmt.Sprintf("param%d:%s%s", h.Index, h.Field, callsText(h)))
	}
	return slices.Clip(parts)
}
