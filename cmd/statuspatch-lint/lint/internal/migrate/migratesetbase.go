package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// setBaseWhy says why a merge patch's base v, declared without a value
// (var base *Kind) in a block around the write and assigned later
// (base = obj.DeepCopy(), karpenter's termination controller under an
// if), stays: -fix moves a base defined with its value. It names the
// declaration, the first assignment and the statement that assignment
// is inside, where one is; "" when v is not declared so or not assigned
// between its declaration and the write.
func setBaseWhy(pl *place, v *types.Var, want string) string {
	decl := noValueDecl(pl, v)
	if decl == nil {
		return ""
	}
	var set *ast.AssignStmt
	var val ast.Expr
	ast.Inspect(pl.enclosingFunc(), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if set != nil || !ok || as.Tok != token.ASSIGN || as.Pos() < decl.End() || as.End() > pl.call.Pos() || len(as.Lhs) != len(as.Rhs) {
			return set == nil
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && pl.pass.TypesInfo.Uses[id] == v {
				set, val = as, as.Rhs[i]
			}
		}
		return set == nil
	})
	if set == nil {
		return ""
	}
	return fmt.Sprintf("the base %s is declared at %s without a value and set to %s at %s%s: -fix moves a base defined with its value (%s := %s)",
		v.Name(), pl.where(decl.Pos()), types.ExprString(val), pl.where(set.Pos()), insideOf(pl, set, decl), v.Name(), want)
}

// noValueDecl is the statement in a block enclosing the write, before
// it, that declares v alone without a value (var v T), or nil.
func noValueDecl(pl *place, v *types.Var) ast.Stmt {
	if v == nil {
		return nil
	}
	for _, list := range pl.enclosingLists() {
		for _, s := range list {
			if s.End() > pl.call.Pos() {
				break
			}
			ds, ok := s.(*ast.DeclStmt)
			if !ok {
				continue
			}
			gd, _ := ds.Decl.(*ast.GenDecl)
			if gd == nil || gd.Tok != token.VAR || len(gd.Specs) != 1 {
				continue
			}
			vs, _ := gd.Specs[0].(*ast.ValueSpec)
			if vs != nil && len(vs.Names) == 1 && len(vs.Values) == 0 && pl.defines(vs.Names[0], v) {
				return s
			}
		}
	}
	return nil
}

// insideOf names the innermost statement around set, below the block
// holding decl, that may not run it: ", inside the if at line N" (or
// for, range, switch, select), or "".
func insideOf(pl *place, set, decl ast.Stmt) string {
	path, _ := astutil.PathEnclosingInterval(pl.file, set.Pos(), set.End())
	for _, n := range path[1:] {
		if n.Pos() <= decl.Pos() && decl.End() <= n.End() {
			return "" // the block holding the declaration
		}
		kind := ""
		switch n.(type) {
		case *ast.IfStmt:
			kind = "if"
		case *ast.ForStmt, *ast.RangeStmt:
			kind = "loop"
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			kind = "switch"
		case *ast.FuncLit:
			kind = "function literal"
		}
		if kind != "" {
			return fmt.Sprintf(", inside the %s at %s", kind, pl.where(n.Pos()))
		}
	}
	return ""
}

// callerNoBase is noBase for a helper's caller c, whose base (or patch)
// v is not what the patcher is made at: it names what v is and where in
// the caller's function (the message is on the helper's write, where
// "this function" would name the helper).
func callerNoBase(c *migration, v *types.Var, what, want string) string {
	if v == nil || c.outerParamOf(v) != "" {
		return c.reads().noBase(v, what, want)
	}
	if why := setBaseWhy(&c.place, v, want); why != "" {
		return c.shapeWhy(why)
	}
	in := "its caller"
	if fd, ok := c.enclosingFunc().(*ast.FuncDecl); ok {
		if fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
			in = funcName(fn, c.pass.Pkg)
		}
	}
	shape := fmt.Sprintf("-fix makes the patcher where %s := %s is taken in the caller", v.Name(), want)
	if v.Parent() == c.pass.Pkg.Scope() {
		return c.shapeWhy(fmt.Sprintf("the %s %s is a package variable: %s", what, v.Name(), shape))
	}
	if def, val := c.definition(v); def != nil && val != nil {
		return c.shapeWhy(fmt.Sprintf("the %s %s is %s, taken in %s at %s: %s", what, v.Name(), c.text().source(val), in, c.where(def.Pos()), shape))
	}
	return c.shapeWhy(fmt.Sprintf("the %s %s, declared in %s at %s, is not %s: %s", what, v.Name(), in, c.where(v.Pos()), want, shape))
}
