package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The variable an expression is rooted in: the one walk down an
// expression's selectors, indexes, dereferences and addresses to the
// variable they reach (counts[k], s.n, *p, &x, f[A, B]). The test-file
// reader has only syntax and asks for the identifier (rootIdent); the
// analyzed package has types and asks for the variable (rootVar).

// rootIdent is the identifier e reaches through selectors, indexes,
// dereferences and &, or nil (nil, _, a call, a literal, ...).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if x.Name == "nil" || x.Name == "_" {
				return nil
			}
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// rootVar is the variable rootIdent(e) names; nil for anything else (a
// package name, a function, a type, no identifier).
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	id := rootIdent(e)
	if id == nil {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}
