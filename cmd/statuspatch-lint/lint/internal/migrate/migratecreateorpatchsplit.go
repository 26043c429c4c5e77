package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// split finds the mutate's status statements (ms.status), or says why
// moving them out of it would not make the same decision: a statement
// that changes the status and more, a return before a status statement,
// a local one side declares and the other uses, a field a status
// statement reads that a later statement sets, the object handed to a
// function that may read or change its status.
func (ms *mutateStmts) split() string {
	list := ms.lit.Body.List
	if len(list) == 0 {
		return "the mutate has no statement"
	}
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		return fmt.Sprintf("the mutate does not end with a return (%s)", ms.cs.where(list[len(list)-1].Pos()))
	}
	where := ms.cs.where
	isStatus := make([]bool, len(list)-1)
	sets := make([]map[string]bool, len(list)-1)
	reads := make([]map[string]bool, len(list)-1)
	lastStatus := -1
	for i, s := range list[:len(list)-1] {
		status, other, handed := false, "", ""
		sets[i], reads[i] = map[string]bool{}, map[string]bool{}
		for _, u := range ms.uses(s) {
			switch {
			case u.handed != "":
				handed = u.handed
			case u.field == "Status":
				status = true
			case u.sets:
				sets[i][u.field] = true
				other = u.field
			default:
				reads[i][u.field] = true
			}
		}
		name := ms.obj.Name()
		switch {
		case status && other != "":
			return fmt.Sprintf("%s uses the status and sets %s.%s", where(s.Pos()), name, other)
		case handed != "":
			return fmt.Sprintf("%s hands %s to %s, which may read or change its status", where(s.Pos()), name, handed)
		}
		isStatus[i] = status
		if status {
			ms.status = append(ms.status, s)
			lastStatus = i
		}
	}
	if lastStatus < 0 {
		return "no statement of the mutate changes the status itself"
	}
	for i, s := range list[:lastStatus+1] {
		if ret := returnIn(s); ret != nil {
			return fmt.Sprintf("%s returns before it, so it is not made on every run", where(ret.Pos()))
		}
		if !isStatus[i] {
			continue
		}
		for j := i + 1; j < len(list)-1; j++ {
			for f := range reads[i] {
				if sets[j][f] {
					return fmt.Sprintf("%s reads %s.%s, which %s sets after it", where(s.Pos()), ms.obj.Name(), f, where(list[j].Pos()))
				}
			}
		}
	}
	return ms.locals(isStatus)
}

// returnIn is the first return of the mutate in s, outside function
// literals.
func returnIn(s ast.Stmt) *ast.ReturnStmt {
	var ret *ast.ReturnStmt
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ret = x
		}
		return ret == nil
	})
	return ret
}

// locals says why a statement cannot leave the mutate for its names: a
// status statement using a local a statement staying declares, one
// staying using a status statement's, or a status statement setting a
// variable outside the object (set later, or not at all on create).
func (ms *mutateStmts) locals(isStatus []bool) string {
	info := ms.cs.pass.TypesInfo
	list := ms.lit.Body.List
	owner := func(v types.Object) int {
		return slices.IndexFunc(list, func(s ast.Stmt) bool { return v.Pos() >= s.Pos() && v.Pos() < s.End() })
	}
	for i, s := range list[:len(list)-1] {
		why := ""
		ast.Inspect(s, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || why != "" {
				return why == ""
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || v == ms.obj {
				return true
			}
			if j := owner(v); j >= 0 && j != i && j < len(isStatus) && isStatus[j] != isStatus[i] {
				why = fmt.Sprintf("%s uses %s, which %s declares in the mutate", ms.cs.where(id.Pos()), v.Name(), ms.cs.where(v.Pos()))
			}
			return why == ""
		})
		if why != "" {
			return why
		}
		if !isStatus[i] {
			continue
		}
		if why := ms.setLater(i); why != "" {
			return why
		}
		for c := range writesOf(mustCursor(ms.cs, s), func(e ast.Expr) bool {
			v := rootVar(info, e)
			return v != nil && v != ms.obj && (v.Pos() < s.Pos() || v.Pos() >= s.End())
		}, nil) {
			return fmt.Sprintf("%s sets %s, outside the object: moved, it would be set after CreateOrPatch, and not on create", ms.cs.where(c.Node().Pos()), types.ExprString(writtenExpr(c.Node(), info, ms.obj, s)))
		}
	}
	return ""
}

// mustCursor is n's cursor (the root's when n is out of sight, which
// split has already refused).
func mustCursor(si *site, n ast.Node) inspector.Cursor {
	c, _ := si.cursor(n)
	return c
}

// writtenExpr is the expression n (an assignment or an address taken)
// sets outside the object and s.
func writtenExpr(n ast.Node, info *types.Info, obj *types.Var, s ast.Stmt) ast.Expr {
	switch x := n.(type) {
	case *ast.UnaryExpr:
		return x.X
	case *ast.AssignStmt:
		for _, l := range x.Lhs {
			if v := rootVar(info, l); v != nil && v != obj && (v.Pos() < s.Pos() || v.Pos() >= s.End()) {
				return l
			}
		}
	}
	return &ast.Ident{Name: "a variable"}
}

// setLater says why the status statement list[i] cannot run after the
// mutate: it reads a variable outside the mutate that a later statement
// sets, which it would then read set.
func (ms *mutateStmts) setLater(i int) string {
	info := ms.cs.pass.TypesInfo
	list := ms.lit.Body.List
	read := map[*types.Var]bool{}
	ast.Inspect(list[i], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && v != ms.obj && (v.Pos() < ms.lit.Pos() || v.Pos() >= ms.lit.End()) {
				read[v] = true
			}
		}
		return true
	})
	for _, s := range list[i+1:] {
		var set *types.Var
		for c := range writesOf(mustCursor(ms.cs, s), func(e ast.Expr) bool {
			if v := rootVar(info, e); read[v] {
				set = v
			}
			return set != nil
		}, nil) {
			return fmt.Sprintf("%s reads %s, which %s sets after it", ms.cs.where(list[i].Pos()), set.Name(), ms.cs.where(c.Node().Pos()))
		}
	}
	return ""
}
