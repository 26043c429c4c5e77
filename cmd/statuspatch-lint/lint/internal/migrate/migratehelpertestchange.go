package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// seeds name the calls that make a test's object the stored one again
// (testChange): Get, the client's read, and the fake client builder's
// WithObjects, whose object the client stores as it is (setting only its
// resourceVersion), known by its name.
var seeds = map[string]bool{"Get": true, "WithObjects": true, "WithRuntimeObjects": true}

// readsOnly names the calls a test passes its object to that leave its
// status as it is: the checks and logs of a test (and readsOnlyName's
// prefixes). A call of a function of the module is judged by its body
// instead (judged, migratetestcallee.go); any other call the object goes
// to may change it.
var readsOnly = map[string]bool{
	"WithStatusSubresource": true, "ObjectKeyFromObject": true, "String": true, "len": true, "cap": true,
	"Log": true, "Logf": true, "Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Skip": true, "Skipf": true,
	"Print": true, "Printf": true, "Println": true, "Sprint": true, "Sprintf": true, "Sprintln": true,
	"Diff": true, "Equal": true, "DeepEqual": true,
}

// readsOnlyName reports whether a call of name leaves its argument arg's
// status as it is (arg -1: its receiver): a getter, a check, a copy, or a
// readsOnly entry. A generated DeepCopyInto reads its receiver and writes
// over its argument (R's fault 6 at s103: the prefix "DeepCopy" took it
// for a copy made).
func readsOnlyName(name string, arg int) bool {
	switch name {
	case "DeepCopy", "DeepCopyObject":
		return true
	case "DeepCopyInto":
		return arg < 0
	}
	for _, p := range []string{"Get", "Is", "Has", "Find"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return readsOnly[name]
}

// testChange says how the test function holding call changes obj, the
// helper's object argument, between where it makes or reads it (its
// declaration or assignment, a Get into it, its seed into a fake client)
// and the call (or after the
// call, in a loop around both), with the line: "it sets x.Status.Y at
// line 21". A patcher made over the object takes the changed object as
// its base, so its write does not send that change, where the Update
// sent the whole status. "" when it does not, or obj is no variable.
func (t *TestCalls) testChange(fset *token.FileSet, root inspector.Cursor, call *ast.CallExpr, obj ast.Expr) string {
	v := rootIdent(obj)
	callCur, ok := root.FindNode(call)
	if v == nil || !ok {
		return ""
	}
	var fn inspector.Cursor
	for fn = range callCur.Enclosing((*ast.FuncDecl)(nil)) {
		break
	}
	if !fn.Valid() {
		return ""
	}
	var change, tail string
	var changeAt, resetAt token.Pos
	for cur := range fn.Preorder((*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CallExpr)(nil)) {
		n := cur.Node()
		if n.Pos() >= call.Pos() && n.End() <= call.End() {
			continue
		}
		reset, what, why := t.touches(fset, n, v.Name)
		after := n.Pos() >= call.End()
		switch {
		case reset && !after:
			change, resetAt = "", n.Pos()
		case what == "" || change != "":
		case !after:
			change, tail, changeAt = what, why, n.Pos()
		case inLoopOf(cur, call.Pos(), resetAt):
			change, tail, changeAt = what, why+", in the loop around the call", n.Pos()
		}
	}
	if change == "" {
		return ""
	}
	return fmt.Sprintf("it %s at line %d%s", change, fset.Position(changeAt).Line, tail)
}

// touches says whether n makes or reads the variable name anew (reset),
// or how it may change its status (what, and why after the line).
func (t *TestCalls) touches(fset *token.FileSet, n ast.Node, name string) (reset bool, what, why string) {
	const may = ", which may change it"
	switch n := n.(type) {
	case *ast.ValueSpec:
		for _, id := range n.Names {
			reset = reset || id.Name == name
		}
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name == name {
				return true, "", ""
			}
			if isRooted(l, name) && (throughStatus(l) || isDeref(l)) && what == "" {
				what = "sets " + exprText(fset, l)
			}
		}
		for _, r := range n.Rhs {
			if isRooted(r, name) && what == "" && (isBare(r) || isAddr(ast.Unparen(r))) {
				what, why = "copies "+exprText(fset, r), ", whose copy may change it"
			}
		}
	case *ast.IncDecStmt:
		if isRooted(n.X, name) && throughStatus(n.X) {
			what = "sets " + exprText(fset, n.X)
		}
	case *ast.CallExpr:
		if t.names(ast.Unparen(n.Fun)) {
			return false, "", ""
		}
		callee := "a call"
		fname := ""
		switch f := ast.Unparen(n.Fun).(type) {
		case *ast.Ident:
			fname, callee = f.Name, f.Name
		case *ast.SelectorExpr:
			fname, callee = f.Sel.Name, f.Sel.Name
			if !isRooted(f.X, name) {
				break
			}
			if tail, known := t.judged(n, -1); known && tail != "" {
				return false, "calls " + exprText(fset, f), tail
			} else if !known && !readsOnlyName(fname, -1) {
				return false, "calls " + exprText(fset, f), may
			}
		}
		for i, a := range n.Args {
			if !isRooted(a, name) || (!isBare(a) && !isAddr(ast.Unparen(a)) && !isDeref(a) && !throughStatus(a)) {
				continue
			}
			if seeds[fname] {
				return true, "", ""
			}
			if tail, known := t.judged(n, i); known && tail != "" {
				return false, "passes " + exprText(fset, a) + " to " + callee, tail
			} else if !known && !readsOnlyName(fname, i) {
				return false, "passes " + exprText(fset, a) + " to " + callee, may
			}
		}
	}
	return reset, what, why
}

// inLoopOf reports whether cur is in a loop that holds the call at
// callPos too, with no new read of the object in it before the call.
func inLoopOf(cur inspector.Cursor, callPos, resetAt token.Pos) bool {
	for loop := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		n := loop.Node()
		if n.Pos() < callPos && callPos < n.End() && (n.Pos() >= resetAt || resetAt >= n.End()) {
			return true
		}
	}
	return false
}

func isRooted(e ast.Expr, name string) bool {
	id := rootIdent(e)
	return id != nil && id.Name == name
}

func isBare(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.Ident)
	return ok
}

func isDeref(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.StarExpr)
	return ok
}

// throughStatus reports whether e selects a field named Status.
func throughStatus(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if x.Sel.Name == "Status" {
				return true
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		default:
			return false
		}
	}
}

// judged is the judge's verdict on call's argument arg (-1: its
// receiver), known false without one (the test files untyped).
func (t *TestCalls) judged(call *ast.CallExpr, arg int) (string, bool) {
	if t.judge == nil {
		return "", false
	}
	return t.judge(call, arg)
}
