package kube

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Fetched is an object passed to a controller-runtime Get, and the object
// its key names (req in c.Get(ctx, req.NamespacedName, &application), x
// in client.ObjectKeyFromObject(x)).
type Fetched struct {
	Name string
	Obj  types.Object // the variable
	Key  types.Object
}

// FetchedNames joins the names of fs with commas.
func FetchedNames(fs []Fetched) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// FetchedObjects returns the variables of type kind (or *kind) that the
// function declaring expr passes to a controller-runtime Get before expr,
// and that expr's position sees (declared in an enclosing scope, not
// shadowed): c.Get(ctx, key, &application) or c.Get(ctx, key, application).
func FetchedObjects(pass *analysis.Pass, expr ast.Expr, kind string) []Fetched {
	decl := EnclosingFunc(pass, expr.Pos())
	scope := pass.Pkg.Scope().Innermost(expr.Pos())
	if decl == nil || scope == nil {
		return nil
	}
	var out []Fetched
	seen := map[types.Object]bool{}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.End() > expr.Pos() || len(call.Args) < 3 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Get" {
			return true
		}
		m, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if !ok || m.Pkg() == nil || m.Pkg().Path() != ClientPkgPath {
			return true
		}
		id, ok := RootIdent(call.Args[2])
		if !ok {
			return true
		}
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || seen[v] {
			return true
		}
		if n := NamedOf(v.Type()); n == nil || n.Obj().Name() != kind {
			return true
		}
		if _, o := scope.LookupParent(id.Name, expr.Pos()); o != v {
			return true
		}
		seen[v] = true
		f := Fetched{Name: id.Name, Obj: v}
		if k, ok := RootIdent(call.Args[1]); ok {
			f.Key = pass.TypesInfo.ObjectOf(k)
		}
		out = append(out, f)
		return true
	})
	return out
}

// NamedBy returns the Fetched objects that the configuration's
// constructor names: its name argument is the object's name
// (application.Name, application.GetName()) or its key's (req.Name), and
// its namespace argument, when it has one, the same object's or key's.
func NamedBy(pass *analysis.Pass, ctor *ast.CallExpr, fs []Fetched) []Fetched {
	if len(ctor.Args) == 0 {
		return nil
	}
	named := NamedByName(pass, ctor.Args[0], fs)
	if len(ctor.Args) > 1 {
		// A namespaced kind's (name, namespace): the same name in another
		// namespace (a constant, another object's) is another object,
		// whose apply the fetched object's resourceVersion would fail.
		ns := NamedByName(pass, ctor.Args[1], fs)
		named = slices.DeleteFunc(named, func(f Fetched) bool { return !slices.Contains(ns, f) })
	}
	return named
}

// NamedByName returns the Fetched objects that name (an object's name, as
// a constructor or an ObjectMeta literal is given it) is the name of:
// application.Name, application.GetName() or req.Name.
func NamedByName(pass *analysis.Pass, name ast.Expr, fs []Fetched) []Fetched {
	id, ok := RootIdent(name)
	if !ok {
		return nil
	}
	o := pass.TypesInfo.ObjectOf(id)
	var out []Fetched
	for _, f := range fs {
		if o != nil && (o == f.Obj || o == f.Key) {
			out = append(out, f)
		}
	}
	return out
}

// RootIdent returns the variable an expression starts from: x in x,
// &x, x.Name, x.NamespacedName, x.GetName() and
// client.ObjectKeyFromObject(x).
func RootIdent(e ast.Expr) (*ast.Ident, bool) {
	for range MaxDepth {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x, true
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil, false
			}
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			switch fun := ast.Unparen(x.Fun).(type) {
			case *ast.SelectorExpr:
				if len(x.Args) == 0 { // x.GetName()
					e = fun.X
				} else if fun.Sel.Name == "ObjectKeyFromObject" && len(x.Args) == 1 {
					e = x.Args[0]
				} else {
					return nil, false
				}
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return nil, false
}
