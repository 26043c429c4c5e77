package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// A re-read whose error variable cannot be the block's. kubebuilder's
// deploy-image Reconcile re-reads the object in the branch where the
// Deployment's Update failed, `if err := r.Get(ctx, key, obj); err != nil`,
// and its status message then reads the outer err, the Update's: the
// Fetch's `p, err = ...` would overwrite it, and `p, err := ...` would
// shadow it for the rest of the block. The if's own err is renamed
// instead, a name of its own in the function:
//
//	var fetchErr error
//	p, fetchErr = patchers.Fetch<Kind>StatusPatcher(ctx, c, key)
//	if fetchErr != nil {
//		log.Error(fetchErr, "...") // the branch's uses of the if's err
//		return ctrl.Result{}, fetchErr
//	}
//	obj = p.Object()
//
// The if's err is seen only in its condition and branch (it is the if's),
// so the rename is every use there. It stays a Get where a use lies in a
// call of the write's client (a write of the branch, which an edit of its
// own rewrites).

// planRename gives f, a Get in an if's init whose error variable errVar
// would shadow or overwrite an outer one, a fresh error name; where a use
// of errVar lies in a call of m's client, it says why the Get stays.
func (f *fetchPlan) planRename(m *migration, errVar types.Object) (why string) {
	for c := range m.usesOf(f.ifStmt, errVar, f.ifStmt.Pos(), f.ifStmt.End()) {
		for e := range c.Enclosing((*ast.CallExpr)(nil)) {
			if sel, ok := ast.Unparen(e.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr); ok && rootText(sel) == m.clientText {
				return fmt.Sprintf("its error variable %s would shadow, or be read before it is set again, and cannot be renamed: the call %s at %s takes it",
					errVar.Name(), types.ExprString(sel), m.where(e.Node().Pos()))
			}
		}
	}
	f.renamed, f.errName, f.define = errVar, freshErrName(m, f), true
	return ""
}

// rootText is the text of the receiver a chain of selectors and calls
// starts at: r.Client for r.Client.Status().Update.
func rootText(e ast.Expr) string {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if _, isCall := ast.Unparen(x.X).(*ast.CallExpr); !isCall {
				return types.ExprString(x.X)
			}
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		default:
			return types.ExprString(e)
		}
	}
}

// freshErrName is "fetchErr", or with 2, 3... a name the function does
// not hold. Each earlier re-read of the same statement list (a block's, a
// case's or a select's clause), an if whose init is a Get after a status
// write of the function, whatever its error's name, counts as a name
// taken: it may be renamed too, and two
// var declarations of one name in a list do not compile (s117's
// adversary: two in a case clause, and one of err2 before one of err).
func freshErrName(m *migration, f *fetchPlan) string {
	first := f.get.Pos() // the function's first status write: a re-read comes after one
	if fn, ok := m.cursor(m.enclosingFunc()); ok {
		for c := range fn.Preorder((*ast.CallExpr)(nil)) {
			if isStatusWrite(c.Node().(*ast.CallExpr)) {
				first = min(first, c.Node().Pos())
			}
		}
	}
	earlier := 0
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		i := slices.Index(list, f.get)
		for _, s := range list[:max(i, 0)] {
			if is, ok := s.(*ast.IfStmt); ok && is.Pos() > first && m.reads().isGetStmt(is) {
				earlier++
			}
		}
		return i < 0
	})
	name := "fetchErr"
	for i := 2; ; i++ {
		if !m.text().nameTaken(name) {
			if earlier == 0 {
				return name
			}
			earlier-- // that if's
		}
		name = "fetchErr" + strconv.Itoa(i)
	}
}

// renameEdits rename the uses of the if's error variable in its
// condition and branch (its declaration goes with the Get's text; a
// dropped Fetch, dropEdits, renames nothing).
func (f *fetchPlan) renameEdits(m *migration) []analysis.TextEdit {
	if f.renamed == nil {
		return nil
	}
	var out []analysis.TextEdit
	for c := range m.usesOf(f.ifStmt, f.renamed, f.ifStmt.Cond.Pos(), f.ifStmt.End()) {
		id := c.Node()
		out = append(out, analysis.TextEdit{Pos: id.Pos(), End: id.End(), NewText: []byte(f.errName)})
	}
	return out
}
