package migrate

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// rangeHoldsRefs reports whether the key or value a range statement
// declares or assigns may hold a reference.
func rangeHoldsRefs(info *types.Info, r *ast.RangeStmt) bool {
	for _, x := range []ast.Expr{r.Key, r.Value} {
		if id, ok := x.(*ast.Ident); x == nil || ok && id.Name == "_" {
			continue
		}
		if holdsRefs(info.TypeOf(x)) {
			return true
		}
	}
	return false
}

// holdsRefs reports whether a value of type t may refer to memory it
// shares with where it was copied from: a pointer, map, slice, channel,
// function or interface, in it or in its fields or elements (an unknown
// type does too). A time.Time (metav1.Time's) is a value: the Location
// it points to has no method or field that changes it.
func holdsRefs(t types.Type) bool {
	if t == nil {
		return true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time" {
		return false // its *Location is shared, but nothing changes a Location
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return holdsRefs(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsRefs(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if holdsRefs(u.At(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// callee names what call calls, for a finding: F, T.M, pkg.F, the builtin
// f, or the function value f.
func (si refs) callee(call *ast.CallExpr) string {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := si.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
			return "the builtin " + id.Name
		}
	}
	if fn := kube.CalledFunc(si.pass, call); fn != nil {
		return funcName(fn, si.pass.Pkg)
	}
	return "the function value " + types.ExprString(call.Fun)
}

func isSignature(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// patcherMaker reports whether fn makes a status patcher of the object
// it is given: a generated New<Kind>StatusPatcher (its result a
// *<Kind>StatusPatcher with Flush), or the patcher package's New and
// NewWithStatus.
func patcherMaker(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || sig.Recv() != nil {
		return false
	}
	p, ok := sig.Results().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	if n.Obj().Pkg().Path() == kube.PatcherPkgPath {
		return n.Obj().Name() == "Patcher"
	}
	flush, _, _ := types.LookupFieldOrMethod(p, true, n.Obj().Pkg(), "Flush")
	return flush != nil && strings.HasSuffix(n.Obj().Name(), "StatusPatcher") && strings.HasPrefix(fn.Name(), "New")
}
