package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An object an event holds: spark-operator's EventFilter.Update, a
// predicate controller-runtime calls (no code of the module does), takes
// newApp from e.ObjectNew.(*v1beta2.SparkApplication), sets its status and
// writes it with Status().Update. The object is the informer's: the
// cache's copy, as a List's item is, which no Get of the module reads
// and whose resourceVersion may be behind what this process wrote since.
// Its write is a List item's (origin.go): made with Fetch, its decision
// (the statements from the object's arrival to the write) run again in
// Retry on the fresh read, when that decision can run twice
// (migrateretryexit.go); else it stays, naming what keeps the decision
// out of Retry.

// eventPkgPath is controller-runtime's event package.
const eventPkgPath = "sigs.k8s.io/controller-runtime/pkg/event"

// eventOrigin is the origin of e when it is an object field of one of
// controller-runtime's events (e.ObjectNew, e.Object; typed events
// too), or a type assertion of one; nil otherwise.
func eventOrigin(info *types.Info, e ast.Expr) *origin {
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		e = ta.X
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil
	}
	n := kube.NamedOf(s.Recv())
	if n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != eventPkgPath {
		return nil
	}
	return &origin{
		pos:   sel.Pos(),
		what:  "the object " + types.ExprString(sel) + " of an event",
		whose: "an event's objects are the informer's cache's",
	}
}

// commaOK reports whether s is v, ok := m[k] (a map's item) or v, ok :=
// x.(T) (a checked type assertion): its first variable is the value, as
// v := m[k]'s is.
func (pl *place) commaOK(s *ast.AssignStmt) bool {
	if len(s.Lhs) != 2 || len(s.Rhs) != 1 {
		return false
	}
	switch x := ast.Unparen(s.Rhs[0]).(type) {
	case *ast.TypeAssertExpr:
		return true
	case *ast.IndexExpr:
		_, isMap := pl.pass.TypesInfo.TypeOf(x.X).Underlying().(*types.Map)
		return isMap
	}
	return false
}

// commaOKCheck is, for the object defined in the comma-ok form before
// the write (newApp, ok := e.ObjectNew.(*Kind), or w, ok := byKey[k]:
// place.definition), the `if !ok { return ... }` check right after it:
// the patcher is made after it, where the object is known to be one (an
// Update's anchor, as a Get's error check is). nil when the definition
// is not of that form or not so checked.
func commaOKCheck(m reads) ast.Stmt {
	def, _ := m.definition(m.obj)
	as, isAssign := def.(*ast.AssignStmt)
	if !isAssign || len(as.Lhs) != 2 {
		return nil
	}
	okID, _ := as.Lhs[1].(*ast.Ident)
	if okID == nil {
		return nil
	}
	for _, list := range m.enclosingLists() {
		i := slices.Index(list, ast.Stmt(as))
		if i < 0 {
			continue
		}
		if i+1 < len(list) && list[i+1].End() <= m.call.Pos() && notOK(m.pass.TypesInfo, list[i+1], m.pass.TypesInfo.ObjectOf(okID)) {
			return list[i+1]
		}
		return nil
	}
	return nil
}

// notOK reports whether s is `if !ok { ...; return ... }`, of the
// variable ok, without an init or an else.
func notOK(info *types.Info, s ast.Stmt, ok types.Object) bool {
	is, isIf := s.(*ast.IfStmt)
	if !isIf || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 || ok == nil {
		return false
	}
	u, isNot := ast.Unparen(is.Cond).(*ast.UnaryExpr)
	if !isNot || u.Op != token.NOT {
		return false
	}
	id, isID := ast.Unparen(u.X).(*ast.Ident)
	_, returns := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
	return isID && info.ObjectOf(id) == ok && returns
}

// checkedDefinition is, when anchor is commaOKCheck's if, the type
// assertion it checks: where the object's life starts (life.freshAt's
// made), as a Get's for a Get's error check.
func checkedDefinition(m reads, anchor ast.Stmt) ast.Stmt {
	if anchor == nil || anchor != commaOKCheck(m) {
		return nil
	}
	for _, list := range m.enclosingLists() {
		if i := slices.Index(list, anchor); i > 0 {
			return list[i-1]
		}
	}
	return nil
}
