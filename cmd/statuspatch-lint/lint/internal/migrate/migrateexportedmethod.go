package migrate

import (
	"fmt"
	"go/types"
)

// methodWhy is the fact that keeps an exported method's write where it
// is (-fix changes no method's signature): the method used as a value,
// an interface of the package or of one it imports that its type
// satisfies through it, or else that -fix moves only a function's
// callers. The method's calls, every one seen, are not the reason.
func (h *helperMove) methodWhy(fn *types.Func, name string) string {
	if fn != nil {
		for _, f := range h.pass.Files {
			for cur := range h.usesOf(f, fn, f.FileStart, f.FileEnd) {
				if call, _ := callOf(cur); call == nil {
					return fmt.Sprintf("%s is an exported method, used as a method value at line %d, whose calls -fix does not follow", name, h.pass.Fset.Position(cur.Node().Pos()).Line)
				}
			}
		}
		if iface := h.satisfiedThrough(fn); iface != "" {
			return fmt.Sprintf("%s is an exported method, and its type satisfies %s, which has %s: calls through it are not seen", name, iface, name)
		}
	}
	return name + " is an exported method: -fix moves an exported helper with its callers only when it is a function, not a method"
}

// satisfiedThrough names an interface type of the package or of a
// package it imports that declares fn's name and that fn's receiver type
// (or a pointer to it) implements: a call through it runs fn unseen. ""
// when none does.
func (h *helperMove) satisfiedThrough(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return ""
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	pkgs := append([]*types.Package{h.pass.Pkg}, h.pass.Pkg.Imports()...)
	for _, pkg := range pkgs {
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok || (pkg != h.pass.Pkg && !tn.Exported()) {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || it.Empty() {
				continue
			}
			has := false
			for i := 0; i < it.NumMethods(); i++ {
				has = has || it.Method(i).Name() == fn.Name()
			}
			if has && (types.Implements(recv, it) || types.Implements(types.NewPointer(recv), it)) {
				if pkg == h.pass.Pkg {
					return n
				}
				return pkg.Name() + "." + n
			}
		}
	}
	return ""
}
