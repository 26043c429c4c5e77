package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// The branch statements of a decision moved into Retry
// (migrateretryexit.go), each judged by one rule: the statement it
// continues or leaves (branchTarget). A continue of the loop the write
// ends is mutate's return nil; a branch whose target is among the moved
// lines moves with them; any other keeps the decision out of Retry.

// continues: a continue (labeled or not) of the loop whose body the
// write's statement is last in.
func continues(r retries, n ast.Node, s, write ast.Stmt) bool {
	br, ok := n.(*ast.BranchStmt)
	if !ok || br.Tok != token.CONTINUE || !r.writeSkippable(write) {
		return false
	}
	t, ok := targetOf(r, n)
	if !ok {
		return false
	}
	var body *ast.BlockStmt
	switch l := t.Node().(type) {
	case *ast.ForStmt:
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	}
	return body != nil && len(body.List) > 0 && body.List[len(body.List)-1] == write
}

// innerBranch: a continue or break whose target (branchTarget) is s or
// inside it, so it stays among the moved lines and leaves nothing of s:
// a decision's own loop, switch or select moves whole.
func innerBranch(r retries, s ast.Stmt, n ast.Node) bool {
	t, ok := targetOf(r, n)
	if !ok {
		return false
	}
	sc, ok := r.cursor(s)
	return ok && sc.Contains(t)
}

// targetOf is branchTarget of the branch statement n of the package.
func targetOf(r retries, n ast.Node) (inspector.Cursor, bool) {
	c, ok := r.cursor(n)
	if !ok {
		return inspector.Cursor{}, false
	}
	return branchTarget(c)
}

// branchTarget is the statement the continue or break at c continues or
// leaves, as the spec says: the innermost for or range around an
// unlabeled continue; the innermost for, range, switch, type switch or
// select around an unlabeled break; the statement a label names. false
// for a goto or fallthrough, and when the statement is not in c's own
// function (a function literal is one of its own).
func branchTarget(c inspector.Cursor) (inspector.Cursor, bool) {
	br, ok := c.Node().(*ast.BranchStmt)
	if !ok || br.Tok != token.CONTINUE && br.Tok != token.BREAK {
		return inspector.Cursor{}, false
	}
	for e := range c.Enclosing() {
		switch s := e.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return inspector.Cursor{}, false
		case *ast.LabeledStmt:
			if br.Label != nil && s.Label.Name == br.Label.Name {
				return e.ChildAt(edge.LabeledStmt_Stmt, -1), true
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if br.Label == nil {
				return e, true
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if br.Label == nil && br.Tok == token.BREAK {
				return e, true
			}
		}
	}
	return inspector.Cursor{}, false
}

// labelEdits drop the labels that only exits of the decision p name: a
// labeled continue made mutate's return nil leaves its label unused,
// which Go does not compile.
func labelEdits(r retries, p *retryPlan) []analysis.TextEdit {
	named := map[*types.Label]int{} // how many exits name each label
	var labeled []inspector.Cursor
	for n, text := range r.exitTexts(p, false) {
		br, ok := n.(*ast.BranchStmt)
		if !ok || br.Label == nil || text == "" {
			continue
		}
		l, _ := r.pass.TypesInfo.Uses[br.Label].(*types.Label)
		t, ok := targetOf(r, n)
		if l == nil || !ok {
			continue
		}
		if named[l]++; named[l] == 1 {
			labeled = append(labeled, t.Parent())
		}
	}
	slices.SortFunc(labeled, func(a, b inspector.Cursor) int { return int(a.Node().Pos() - b.Node().Pos()) })
	var edits []analysis.TextEdit
	for _, lc := range labeled {
		ls := lc.Node().(*ast.LabeledStmt)
		l := r.pass.TypesInfo.Defs[ls.Label].(*types.Label)
		for fn := range lc.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
			for c := range fn.Preorder((*ast.BranchStmt)(nil)) {
				if br := c.Node().(*ast.BranchStmt); br.Label != nil && r.pass.TypesInfo.Uses[br.Label] == l {
					named[l]--
				}
			}
			break
		}
		if named[l] != 0 {
			continue // named by a branch that stays
		}
		tf := r.pass.Fset.File(ls.Pos())
		if tf.Line(ls.Pos()) == tf.Line(ls.Stmt.Pos()) {
			edits = append(edits, analysis.TextEdit{Pos: ls.Pos(), End: ls.Stmt.Pos()})
		} else {
			edits = append(edits, analysis.TextEdit{Pos: tf.LineStart(tf.Line(ls.Pos())), End: tf.LineStart(tf.Line(ls.Stmt.Pos()))})
		}
	}
	return edits
}
