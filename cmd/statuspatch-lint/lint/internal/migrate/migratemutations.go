package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// What the code does to the object around its write that a Flush cannot
// carry: a change outside the status between the patcher's anchor and
// the write (checkMutations), an alias or reference made before the
// anchor and used after it (checkBefore), and what a function the object
// is handed to does with it, by its body (checkCallee, checkFunc). Each
// says why the write stays, naming the line; the edits that move it are
// migrateedit.go's.

// checkMutations returns why the code between the anchor and the write
// may change more of the object than its status, or replace it: the
// patcher's Flush writes the status only (and refuses a change elsewhere
// with patcher.ErrNonStatusChange). The object may be read, its status
// assigned or passed by address, its getters and DeepCopy called;
// anything else (a field outside the status assigned or addressed, a
// method of the object called, the object passed on, aliased or
// reassigned) keeps the write as it is.
func (m checks) checkMutations() string {
	uses := func(root ast.Node, from, to token.Pos) string { return m.checkUses(root, m.obj, from, to, 0) }
	if why := m.checkBefore(uses, true); why != "" {
		return why
	}
	to := m.call.Pos()
	if inDefer(m.path) || deferredCall(m.path, m.call) {
		to = m.enclosingFunc().End() // it runs as the function returns
	}
	// A deferred literal that does not hold the write runs after it: its
	// uses are no change before the write (lifedefer.go).
	from := m.anchor.End()
	for _, lit := range deferredLits(m.enclosingFunc(), m.call) {
		if lit.Pos() < from || lit.Pos() >= to {
			continue
		}
		if why := uses(m.enclosingFunc(), from, lit.Pos()); why != "" {
			return why
		}
		from = lit.End()
	}
	return uses(m.enclosingFunc(), from, to)
}

// checkBefore returns why a use of the object before the anchor may change
// it after: the object, or a reference into it, aliased or handed on
// there (a := obj, l := obj.Spec.Labels, s := &obj.Spec), which the uses
// after the anchor do not show, or a function literal declared there
// whose use of it uses (the write's mode's check of the uses after the
// anchor) refuses, which may be called after. statusRefs says whether a
// reference into the status may be kept there (merge mode: a change
// through it is the status the patcher writes; apply mode refuses it
// beside ApplyStatus). Reading it, setting it, and the calls checkUses
// allows are fine.
func (m checks) checkBefore(uses func(root ast.Node, from, to token.Pos) string, statusRefs bool) string {
	fn, name := m.enclosingFunc(), m.obj.Name()
	return m.eachUse(fn, m.obj, fn.Pos(), m.anchor.Pos(), func(stack []ast.Node, id *ast.Ident) string {
		if madeBefore(m.migration, stack) {
			return "" // another object than the anchor's, or its patcher made before (lifepatcherbase.go)
		}
		line := m.where(id.Pos())
		for _, n := range stack[1:] {
			if lit, ok := n.(*ast.FuncLit); ok {
				if why := uses(lit.Body, id.Pos(), id.End()); why != "" {
					return fmt.Sprintf("a function literal declared at %s, before %s, captures %s and may change it when called after: %s", m.where(lit.Pos()), m.anchorSaid(), name, why)
				}
				return ""
			}
		}
		stack, e := addressed(stack, m.obj) // &obj of a value: its pointer
		switch p := stack[len(stack)-2].(type) {
		case *ast.SelectorExpr:
			if statusRefs && p.Sel.Name == "Status" {
				return ""
			}
			how := ""
			if top, changed := changedAt(stack, len(stack)-1); changed {
				// Set before the read: the read overwrites it; its
				// address taken: a reference kept.
				if u, ok := stack[top-1].(*ast.UnaryExpr); !ok || u.Op != token.AND {
					return ""
				}
				how = "the address of " + types.ExprString(stack[top].(ast.Expr)) + " is taken"
			} else {
				_, how = m.refs().chainChange(stack, len(stack)-1)
			}
			if how != "" {
				return fmt.Sprintf("a reference into %s is kept at %s, before %[3]s (%[4]s): a change through it after %[3]s would be unseen", name, line, m.anchorSaid(), how)
			}
			return ""
		case *ast.AssignStmt:
			if isLHS(p, id) {
				return ""
			}
		case *ast.BinaryExpr:
			return ""
		case *ast.CallExpr:
			ok, why := m.checkCallee(p, e, 0)
			if ok || slices.Contains(p.Args, e) && m.allowedCall(p, e, m.obj) {
				return ""
			}
			if why != "" && slices.Contains(p.Args, e) {
				// What the callee does, by its body or its fact:
				// karpenter's ensureTerminationGracePeriod...Annotation.
				return fmt.Sprintf("%s is handed to %s at %s, before %[4]s, where %[5]s: a change through that reference after %[4]s would be unseen", name, types.ExprString(p.Fun), line, m.anchorSaid(), beforeAdvice(why))
			}
		}
		return fmt.Sprintf("%s is aliased or handed on at %s, before %[3]s: a change through that reference after %[3]s would be unseen", name, line, m.anchorSaid())
	})
}

// checkCallee reports whether call, which passes id as an argument, is a
// call of a function whose uses of that parameter change at most the
// status: one declared in the package, checked here (why says what its
// body does with it when it is not), or one of another package, by its
// ParamsFact.
func (m checks) checkCallee(call *ast.CallExpr, id ast.Expr, depth int) (ok bool, why string) {
	fn := kube.CalledFunc(m.pass, call)
	if fn == nil {
		return m.checkValues(call, id, depth) // a function value (refsfuncvalue.go)
	}
	arg := -1
	for i, a := range call.Args {
		if a == id {
			arg = i
		}
	}
	// A method expression, (*T).M(recv, args...), takes the receiver
	// first: the facts and the parameters below do not count it.
	recv := false
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := m.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			recv, arg = arg == 0, arg-1
		}
	}
	// A spread call, f(x, opts...), lands its other arguments in place
	// (karpenter's ConditionTypes.For(in, opts...)): the facts count them.
	if call.Ellipsis.IsValid() && (fn.Pkg() == m.pass.Pkg || arg >= fn.Signature().Params().Len()-1) {
		return false, ""
	}
	if !recv && arg >= 0 && isIfaceMethod(fn) {
		return m.impls().check(call, fn, arg, depth) // paramsimpls.go
	}
	return m.checkFunc(call, fn, arg, recv, depth)
}

// checkFunc is checkCallee of fn, the function call runs, given the
// object as its argument arg (recv: as the receiver of a method
// expression).
func (m checks) checkFunc(call *ast.CallExpr, fn *types.Func, arg int, recv bool, depth int) (ok bool, why string) {
	if fn.Pkg() != m.pass.Pkg {
		if !recv && arg >= 0 && (m.importedStatusOnly(fn, arg) || depth == 0 && m.helperWrite(fn, arg)) {
			return true, ""
		}
		if recv || arg < 0 {
			return false, ""
		}
		if why := aloneHelperWrite(m.pass, fn, arg); depth == 0 && why != "" {
			return false, why // the module's driver moves them together (migrateexported.go)
		}
		if ok, why, known := m.checkReturned(call, fn, arg); known {
			return ok, why // what it returns, followed (paramsreturns.go)
		}
		// Its fact says what its body does (ParamsFact.Why; UnsentWhy
		// when changes outside the status are left unsent).
		return false, strings.TrimPrefix(m.argWhy(fn, arg), ", where ")
	}
	if slices.Contains(m.following, fn) {
		return true, "" // a recursive call: its uses are the ones being checked
	}
	if depth >= maxCalleeDepth {
		return false, fmt.Sprintf("the calls go on deeper than %d functions of the package, which -fix does not follow", maxCalleeDepth)
	}
	fd := m.funcDecl(fn)
	if fd == nil || fd.Body == nil {
		return false, ""
	}
	var params []*ast.Ident
	if recv {
		// Its uses are checked as a parameter's (no fact records them).
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return false, ""
		}
		params, arg = fd.Recv.List[0].Names, 0
	} else {
		for _, field := range fd.Type.Params.List {
			params = append(params, field.Names...)
		}
	}
	if arg < 0 || arg >= len(params) || !recv && fn.Signature().Variadic() && arg >= len(params)-1 {
		return false, ""
	}
	p, ok := m.pass.TypesInfo.Defs[params[arg]].(*types.Var)
	if !ok {
		return false, ""
	}
	m.following = append(m.following, fn)
	ok, why = m.checkParam(call, p, fd.Body, depth)
	m.following = m.following[:len(m.following)-1]
	return ok, why
}

// addressed is the use of v at the end of stack as the object's
// pointer: &v of a local value v read by Get(ctx, key, &v) (jobset's var
// js jobset.JobSet, then r.reconcile(ctx, &js, ...)), whose stack ends at
// the &; else the stack and its identifier as they are.
func addressed(stack []ast.Node, v *types.Var) ([]ast.Node, ast.Expr) {
	id := stack[len(stack)-1].(ast.Expr)
	if u, ok := stack[len(stack)-2].(*ast.UnaryExpr); ok && u.Op == token.AND && u.X == id && valueObj(v) {
		return stack[:len(stack)-1], u
	}
	return stack, id
}

// valueObj reports whether v holds an object as a value, not a pointer
// to it: its address is the object's pointer.
func valueObj(v *types.Var) bool {
	if v == nil {
		return false
	}
	_, ptr := v.Type().Underlying().(*types.Pointer)
	return !ptr && mayBeObject(types.NewPointer(v.Type()))
}

// maxCalleeDepth is how many functions of the package deep checkCallee
// follows the object: each says, by its body, what it does with it.
const maxCalleeDepth = 16

// changedAt climbs from stack[top] to the outermost expression of its
// chain of selections, indexes, parentheses and dereferences, and reports
// that expression's index and whether it is changed there: assigned,
// incremented or decremented, or its address taken.
func changedAt(stack []ast.Node, top int) (int, bool) {
	parent := func(i int) ast.Node {
		if i < 0 {
			return nil
		}
		return stack[i]
	}
	for {
		switch p := parent(top - 1).(type) {
		case *ast.SelectorExpr:
			if p.X == stack[top] {
				top--
				continue
			}
		case *ast.IndexExpr:
			if p.X == stack[top] {
				top--
				continue
			}
		case *ast.ParenExpr, *ast.StarExpr:
			top--
			continue
		}
		break
	}
	switch p := parent(top - 1).(type) {
	case *ast.AssignStmt:
		return top, isLHS(p, stack[top])
	case *ast.IncDecStmt:
		return top, true
	case *ast.UnaryExpr:
		return top, p.Op == token.AND
	}
	return top, false
}

func isLHS(as *ast.AssignStmt, n ast.Node) bool {
	for _, l := range as.Lhs {
		if l == n {
			return true
		}
	}
	return false
}

// beforeAdvice is why up to its first ": " outside parentheses: what a
// callee does, without the advice that follows for a change after the
// read.
func beforeAdvice(why string) string {
	depth := 0
	for i, r := range why {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case depth == 0 && strings.HasPrefix(why[i:], ": "):
			return why[:i]
		}
	}
	return why
}

// anchorSaid names where the patcher would be made, for checkBefore's
// reasons: "the read", or, where that is the write's base taken after
// the read (base := obj.DeepCopy(), which -fix leaves in place), "the
// base at line N".
func (m checks) anchorSaid() string {
	var vals []ast.Expr
	switch a := m.anchor.(type) {
	case *ast.AssignStmt:
		vals = a.Rhs
	case *ast.DeclStmt:
		if g, ok := a.Decl.(*ast.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					vals = append(vals, vs.Values...)
				}
			}
		}
	}
	if slices.ContainsFunc(vals, m.reads().isDeepCopyOfObj) {
		return "the base at " + m.where(m.anchor.Pos())
	}
	return "the read"
}
