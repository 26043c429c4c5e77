package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// An alias of the object is a new local that is the same object: its uses
// are the object's, checked as they are (checkUses), from its definition
// to the end of the range checked. lws's setControllerReferenceWithStatefulSet
// asserts its owner (ro, ok := owner.(runtime.Object)) and gives ro to
// apiutil.GVKForObject, which reads it. Each form is an entry of
// objectAliases; anything else the object is put in is useProblem's.

// objectAlias recognises one form of alias at the use of the object at the
// end of stack: the local it defines (nil for the blank identifier), the
// node whose end its uses start after, and how to name it in a reason.
type objectAlias func(info *types.Info, stack []ast.Node) (local *types.Var, def ast.Node, how string, ok bool)

// objectAliases is the table of the forms followed.
var objectAliases = []objectAlias{
	assertedAlias,
	valueCopy, // migratevalue.go
}

// assertedAlias: a type assertion of the object to an interface, defined
// into a new local (x := obj.(I), x, ok := obj.(I), var x = obj.(I)); an
// interface holds the same pointer.
func assertedAlias(info *types.Info, stack []ast.Node) (*types.Var, ast.Node, string, bool) {
	n := len(stack)
	if n < 3 {
		return nil, nil, "", false
	}
	ta, ok := stack[n-2].(*ast.TypeAssertExpr)
	if !ok || ta.X != stack[n-1] || ta.Type == nil || !types.IsInterface(info.TypeOf(ta.Type)) {
		return nil, nil, "", false
	}
	var lhs ast.Expr
	switch p := stack[n-3].(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Rhs) != 1 || p.Rhs[0] != ta || len(p.Lhs) > 2 {
			return nil, nil, "", false
		}
		lhs = p.Lhs[0]
	case *ast.ValueSpec:
		if len(p.Values) != 1 || p.Values[0] != ta || len(p.Names) > 2 {
			return nil, nil, "", false
		}
		lhs = p.Names[0]
	default:
		return nil, nil, "", false
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return nil, nil, "", false
	}
	how := "asserted to " + types.ExprString(ta.Type)
	if id.Name == "_" {
		return nil, stack[n-3], how, true
	}
	v, _ := info.Defs[id].(*types.Var)
	return v, stack[n-3], how, v != nil
}

// checkAlias checks the uses of the alias the use of v at the end of stack
// defines, when it is one of objectAliases' forms (handled false when it
// is none); why names the alias and what its uses do.
func (m checks) checkAlias(root ast.Node, stack []ast.Node, v *types.Var, to token.Pos, depth int) (handled bool, why string) {
	for _, form := range objectAliases {
		local, def, how, ok := form(m.pass.TypesInfo, stack)
		if !ok {
			continue
		}
		if local == nil {
			return true, ""
		}
		if w := m.checkUses(root, local, def.End(), to, depth); w != "" {
			return true, fmt.Sprintf("%s is %s at %s, where %s", v.Name(), how, m.where(stack[len(stack)-1].Pos()), w)
		}
		return true, ""
	}
	return false, ""
}
