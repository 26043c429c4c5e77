package migrate

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// An interface call whose implementations the package cannot see (the
// receiver is a parameter, or a field a caller in another package sets:
// spark-operator's ShouldSchedule, given the SparkApplication) runs one
// of the types that implement the interface, and only the module can
// have them when the method's signature names a type of the module: no
// package outside it can write that method, and when the interface is
// closed to it: declared in an internal package of the module, or with
// an unexported method (a library's exported interface is implemented by
// the modules importing it). Under the whole-module
// driver (Options.Module, with Options.Assumed) the fix assumes such a
// call, and the driver (lint.ResolveIfaceCalls) keeps the write unless
// every type of the module with the interface's methods changes at most
// the status of what it is given there, by its method's ParamsFact, and
// no file the driver did not load (a test file, a package not analyzed,
// a file of other build tags) declares a method of that name. A
// per-package pass (vet, golangci-lint) has no such view: the write
// stays, as before.

// IfaceCall is one call of an interface's method, given the object as
// its argument Arg, that a fix assumes.
type IfaceCall struct {
	Method string      // the method's name
	Iface  string      // the interface's method, for the reason: (pkg.Iface).Method
	At     string      // where it is called
	Arg    int         // the object's parameter (a variadic one: the last)
	Field  string      // the holder's field the object is in ("": the object itself is passed)
	Sigs   []MethodSig // the interface's methods, which an implementation has
	Unsent bool        // the write leaves changes outside the status unsent: ParamsFact.Unsent counts (migrateunsent.go)
}

// MethodSig is a method by name (package path first when unexported) and
// signature text (full package paths), comparable across type universes.
type MethodSig struct{ Name, Sig string }

// assume records call, of the interface method fn given the object as
// arg (or a holder of it, in field), for the module's driver, when it
// collects and the method's signature names a type of the module.
func (i impls) assume(call *ast.CallExpr, fn *types.Func, arg int, field string) bool {
	if i.assumed == nil || !i.module || i.pass.Module == nil || i.pass.Module.Path == "" {
		return false
	}
	mod := i.pass.Module.Path
	if !namesModuleType(fn.Signature().Params(), mod) && !namesModuleType(fn.Signature().Results(), mod) {
		return false
	}
	iface, _ := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	if iface == nil || !closed(fn, iface, mod) {
		return false
	}
	if n := fn.Signature().Params().Len(); fn.Signature().Variadic() && arg >= n-1 {
		arg = n - 1 // a holder among the variadic arguments: the slice parameter's
	}
	c := IfaceCall{Method: fn.Name(), Iface: fn.FullName(), At: i.where(call.Pos()), Arg: arg, Field: field, Unsent: i.unsent}
	for m := range iface.Methods() {
		c.Sigs = append(c.Sigs, methodSig(m))
	}
	*i.assumed = append(*i.assumed, c)
	return true
}

// closed reports whether only the module mod can give a value of iface,
// the interface of fn: it has an unexported method (only its package can
// implement it), or it is declared in an internal package of the module,
// which no other module can import. An exported interface of a library
// (karpenter's cloudprovider.CloudProvider) is implemented by the modules
// that import it (a cloud provider's), which this one cannot see.
func closed(fn *types.Func, iface *types.Interface, mod string) bool {
	for m := range iface.Methods() {
		if !m.Exported() {
			return true
		}
	}
	if fn.Pkg() == nil {
		return false
	}
	p := fn.Pkg().Path()
	i := strings.LastIndex(p, "/internal/")
	if i < 0 && strings.HasSuffix(p, "/internal") {
		i = len(p) - len("/internal")
	}
	if i < 0 {
		return false
	}
	parent := p[:i]
	return parent == mod || strings.HasPrefix(parent, mod+"/")
}

func methodSig(m *types.Func) MethodSig {
	name := m.Name()
	if !m.Exported() && m.Pkg() != nil {
		name = m.Pkg().Path() + "." + name
	}
	sig := m.Signature()
	return MethodSig{name, tupleText(sig.Params(), sig.Variadic()) + tupleText(sig.Results(), false)}
}

// tupleText is the types of vars, without their names (an interface's
// method and its implementation name their parameters as they like).
func tupleText(vars *types.Tuple, variadic bool) string {
	var parts []string
	for v := range vars.Variables() {
		parts = append(parts, types.TypeString(v.Type(), nil))
	}
	if variadic {
		parts = append(parts, "variadic")
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// namesModuleType reports whether a type of vars names a named type of
// the module mod.
func namesModuleType(vars *types.Tuple, mod string) bool {
	for v := range vars.Variables() {
		if namesModuleIn(v.Type(), mod, 0) {
			return true
		}
	}
	return false
}

func namesModuleIn(t types.Type, mod string, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		p := t.Obj().Pkg()
		return p != nil && (p.Path() == mod || strings.HasPrefix(p.Path(), mod+"/"))
	case *types.Pointer:
		return namesModuleIn(t.Elem(), mod, depth+1)
	case *types.Slice:
		return namesModuleIn(t.Elem(), mod, depth+1)
	case *types.Array:
		return namesModuleIn(t.Elem(), mod, depth+1)
	case *types.Chan:
		return namesModuleIn(t.Elem(), mod, depth+1)
	case *types.Map:
		return namesModuleIn(t.Key(), mod, depth+1) || namesModuleIn(t.Elem(), mod, depth+1)
	}
	return false
}

// Implements returns the method c calls of t's method set (or *t's),
// when t has every method of the interface.
func (c IfaceCall) Implements(t types.Type) *types.Func {
	if types.IsInterface(t) {
		return nil
	}
	if _, ptr := t.Underlying().(*types.Pointer); !ptr {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	var called *types.Func
	for _, want := range c.Sigs {
		found := false
		for sel := range ms.Methods() {
			f, _ := sel.Obj().(*types.Func)
			if f != nil && methodSig(f) == want {
				found = true
				if f.Name() == c.Method {
					called = f
				}
			}
		}
		if !found {
			return nil
		}
	}
	return called
}

// Declares reports whether t's method set (or *t's) has a method named as
// the one c calls: a generic type that may implement it.
func (c IfaceCall) Declares(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for sel := range ms.Methods() {
		if sel.Obj().Name() == c.Method {
			return true
		}
	}
	return false
}

// Leaves reports whether a method whose fact is f changes at most the
// status of the object it is given there; why, from the fact, when not.
func (c IfaceCall) Leaves(f *ParamsFact) (bool, string) {
	if f == nil {
		return false, ""
	}
	if c.Arg == recvArg {
		return leavesRecv(f) // called on the object (paramsimplsrecv.go)
	}
	if c.Field != "" {
		return c.leavesHeld(f)
	}
	if slices.Contains(f.StatusOnly, c.Arg) || c.Unsent && slices.Contains(f.Unsent, c.Arg) {
		return true, ""
	}
	if c.Unsent {
		for _, w := range f.UnsentWhy {
			if w.Index == c.Arg {
				return false, w.Why
			}
		}
	}
	for _, w := range f.Why {
		if w.Index == c.Arg {
			return false, w.Why
		}
	}
	return false, ""
}
