package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// A handLoop is a conflict loop written by hand (issue 80, u's project C,
// DatabaseReconciler.Reconcile): a for, counted or not, whose body reads
// the object again with Get (leaving on its error), decides, writes its
// status as err = write, and leaves unless apierrors.IsConflict(err), in
// one of three spellings:
//
//	if !apierrors.IsConflict(err) { break }
//	if err == nil { break }; if !apierrors.IsConflict(err) { ...; return ... }
//	if apierrors.IsConflict(err) { continue }; ...; break
//
// It is the conflict loop's (migrateloop.go) by hand: the loop becomes
// the Retry of the patcher the object's life already has (the writes of
// the object before it share one, planGroup), the object staying that
// patcher's, or of a Fetch<Kind>StatusPatcherInto of the object when it
// has none (migratehandloopedit.go). The loop's bound is Retry's
// (patcher.DefaultBackoff), which the fix's note says. A call of the
// decision with a side effect is made once (migrateonce.go), as for
// any decision moved into Retry. A loop doing anything else on each
// attempt (another write, a sleep, a return or break of its own, the
// attempt counter read) keeps the write, naming the line.
type handLoop struct {
	*migration
	loop   *ast.ForStmt
	get    *ast.CallExpr   // the body's Get of the object
	check  *ast.IfStmt     // the Get's error check, leaving the function
	decide []ast.Stmt      // between the check and the write
	write  *ast.AssignStmt // err = write, or err := write
	exit   []ast.Stmt      // after the write, up to the loop's end: its spelling
	tail   []ast.Stmt      // run after Retry: a conflict-continue's statements before break
	orElse *ast.BlockStmt  // run when Retry fails: if err == nil { break }'s other error's block
	bound  string          // the loop's count of attempts; "" unbounded
}

// handLoopOf returns the hand conflict loop whose body holds m's write,
// nil when the write is in none, or why one keeps it.
func handLoopOf(m *migration) (*handLoop, string) {
	h := &handLoop{migration: m}
	var stmt ast.Node
	for i := 1; i < len(m.path) && h.loop == nil; i++ {
		switch n := m.path[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil, ""
		case *ast.ForStmt:
			h.loop = n
			if i >= 2 {
				stmt = m.path[i-2]
			}
		}
	}
	if h.loop == nil || !h.conflictChecked() {
		return nil, ""
	}
	if why := h.plan(stmt); why != "" {
		return nil, m.shapeWhy(fmt.Sprintf("the write is in a conflict loop written by hand at line %d, %s (make the Get a Fetch%s before the loop, and the loop its Retry, by hand)", h.line(h.loop), why, m.patcherType))
	}
	return h, ""
}

// conflictChecked reports whether the loop's body asks
// apierrors.IsConflict of anything: a loop retrying conflicts.
func (h *handLoop) conflictChecked() bool {
	cur, ok := h.cursor(h.loop.Body)
	if !ok {
		return false
	}
	for c := range cur.Preorder((*ast.CallExpr)(nil)) {
		if h.isConflictCall(c.Node().(*ast.CallExpr)) {
			return true
		}
	}
	return false
}

// plan finds the loop's parts, stmt the body's statement holding the
// write, or says what keeps the write in it.
func (h *handLoop) plan(stmt ast.Node) string {
	list := h.loop.Body.List
	wi := -1
	for i, s := range list {
		if s == stmt {
			wi = i
		}
	}
	as, ok := stmt.(*ast.AssignStmt)
	if wi < 0 || !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(h.call) {
		return "whose write is not a statement err = write of its body"
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name == "_" {
		return "whose write's error is not assigned to a variable"
	}
	h.write = as
	if why := h.counted(); why != "" {
		return why
	}
	if why := h.findGet(list[:wi]); why != "" {
		return why
	}
	if why := h.onEachAttempt(h.decide); why != "" {
		return why
	}
	h.exit = list[wi+1:]
	return h.exits()
}

// counted reads the loop's header: for {}, or for i := 0; i < n; i++
// with i read nowhere in the body.
func (h *handLoop) counted() string {
	f := h.loop
	if f.Init == nil && f.Cond == nil && f.Post == nil {
		return ""
	}
	as, ok := f.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 {
		return "whose header is not for {} or for i := 0; i < n; i++"
	}
	i, _ := h.pass.TypesInfo.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
	cond, ok := f.Cond.(*ast.BinaryExpr)
	post, ok2 := f.Post.(*ast.IncDecStmt)
	if i == nil || !ok || !ok2 || cond.Op != token.LSS || !h.isVar(cond.X, i) || !h.isVar(post.X, i) || post.Tok != token.INC {
		return "whose header is not for {} or for i := 0; i < n; i++"
	}
	for c := range h.usesOf(h.loop.Body, i, token.NoPos, token.Pos(1<<62)) {
		return fmt.Sprintf("whose attempt counter %s is read at line %d", i.Name(), h.line(c.Node()))
	}
	h.bound = h.text().source(cond.Y)
	return ""
}

// findGet finds the body's Get of the object, first, and its check,
// which leaves the function: the statements after it up to the write
// are the decision.
func (h *handLoop) findGet(list []ast.Stmt) string {
	if len(list) == 0 || !h.reads().isGetStmt(list[0]) {
		return fmt.Sprintf("which does not read %s with Get first", h.obj.Name())
	}
	after := 1
	var getAs *ast.AssignStmt
	switch s := list[0].(type) {
	case *ast.IfStmt:
		getAs, _ = s.Init.(*ast.AssignStmt)
		h.check = s
	case *ast.AssignStmt:
		getAs = s
		if len(list) > 1 && h.checksErr(list[1], s) {
			h.check, after = list[1].(*ast.IfStmt), 2
		}
	}
	if getAs == nil || h.check == nil || h.check.Else != nil || len(h.check.Body.List) == 0 || len(getAs.Lhs) != 1 {
		return fmt.Sprintf("whose Get at line %d is not followed by if err != nil { ...; return }", h.line(list[0]))
	}
	if _, ok := h.check.Body.List[len(h.check.Body.List)-1].(*ast.ReturnStmt); !ok {
		return fmt.Sprintf("whose Get at line %d does not return on its error", h.line(list[0]))
	}
	h.get = ast.Unparen(getAs.Rhs[0]).(*ast.CallExpr)
	if len(h.get.Args) != 3 {
		return fmt.Sprintf("whose Get at line %d has options", h.line(list[0]))
	}
	if sel, ok := ast.Unparen(h.get.Fun).(*ast.SelectorExpr); !ok || types.ExprString(sel.X) != types.ExprString(h.client) {
		return fmt.Sprintf("whose Get at line %d reads with another client than the write's", h.line(list[0]))
	}
	cur, _ := h.cursor(h.get.Args[1])
	for c := range cur.Preorder((*ast.Ident)(nil)) {
		if o := h.pass.TypesInfo.Uses[c.Node().(*ast.Ident)]; o != nil && o.Pos() >= h.loop.Pos() && o.Pos() < h.loop.End() {
			return fmt.Sprintf("whose Get at line %d reads a key made in the loop", h.line(list[0]))
		}
	}
	if o := h.obj; o.Pos() >= h.loop.Pos() && o.Pos() < h.loop.End() {
		return fmt.Sprintf("where %s is declared", o.Name())
	}
	h.decide = list[after:]
	return ""
}

// onEachAttempt says what the statements do on each attempt besides
// deciding the status, naming the line: a write through a client, a
// sleep, a return, break, continue or goto of their own, a function
// literal or a go or defer statement. "" when they only decide.
func (h *handLoop) onEachAttempt(list []ast.Stmt) string {
	for _, s := range list {
		cur, ok := h.cursor(s)
		if !ok {
			return "whose code is not in the package's syntax"
		}
		why := ""
		cur.Inspect(nil, func(c inspector.Cursor) bool {
			if why != "" {
				return false
			}
			switch n := c.Node().(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				why = fmt.Sprintf("which also has a function literal, go or defer statement at line %d", h.line(n))
			case *ast.ReturnStmt:
				why = fmt.Sprintf("which also leaves it at line %d on each attempt", h.line(n))
			case *ast.BranchStmt:
				if n.Tok == token.GOTO || n.Label != nil || !innerTarget(c, cur, n.Tok) {
					why = fmt.Sprintf("which also leaves it at line %d on each attempt", h.line(n))
				}
			case *ast.CallExpr:
				if h.writesOrWaits(n) {
					why = fmt.Sprintf("which also does %s at line %d on each attempt", types.ExprString(n.Fun), h.line(n))
				}
			}
			return why == ""
		})
		if why != "" {
			return why
		}
	}
	return ""
}

// innerTarget reports whether the break or continue at c targets a for,
// range, switch or select inside root (a break), or a for or range
// inside it (a continue): not the hand loop.
func innerTarget(c, root inspector.Cursor, tok token.Token) bool {
	for e := range c.Enclosing() {
		switch e.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if tok == token.BREAK {
				return true
			}
		}
		if e == root {
			return false
		}
	}
	return false
}

// writesOrWaits reports whether call writes through a client (Create,
// Update, Patch, Delete, Apply, a status or subresource writer's) or
// waits (time.Sleep, a wait of k8s.io/apimachinery's wait package).
func (h *handLoop) writesOrWaits(call *ast.CallExpr) bool {
	if fn := kube.CalledFunc(h.pass, call); fn != nil && fn.Pkg() != nil {
		switch p := fn.Pkg().Path(); {
		case p == "time" && (fn.Name() == "Sleep" || fn.Name() == "After" || fn.Name() == "Tick"):
			return true
		case p == waitPkgPath:
			return true
		}
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Create", "Update", "Patch", "Delete", "DeleteAllOf", "Apply":
	default:
		return false
	}
	if _, status := statusReceiver(call); status {
		return true
	}
	t := h.pass.TypesInfo.TypeOf(sel.X)
	return h.isClient(sel.X) || embedsClient(&h.calls, t)
}

// exits reads the statements after the write: one of the spellings
// leaving the loop unless the write's error is a conflict. Any other
// statement runs on each attempt and keeps the loop.
func (h *handLoop) exits() string {
	err := h.pass.TypesInfo.ObjectOf(h.write.Lhs[0].(*ast.Ident))
	rest := h.exit
	switch {
	case len(rest) >= 1 && h.branchIf(rest[0], err, "!conflict", token.BREAK) != nil:
		rest = rest[1:]
	case len(rest) >= 2 && h.branchIf(rest[0], err, "nil", token.BREAK) != nil && h.branchIf(rest[1], err, "!conflict", token.ILLEGAL) != nil:
		h.orElse = rest[1].(*ast.IfStmt).Body
		rest = rest[2:]
	case len(rest) >= 2 && h.branchIf(rest[0], err, "conflict", token.CONTINUE) != nil:
		if b, ok := rest[len(rest)-1].(*ast.BranchStmt); ok && b.Tok == token.BREAK && b.Label == nil {
			h.tail = rest[1 : len(rest)-1]
			if why := h.leavesLoop(h.tail); why != "" {
				return why
			}
			rest = nil
		}
	default:
		return fmt.Sprintf("whose statements after the write at line %d are not if !apierrors.IsConflict(%s) { break } (or if %s == nil { break } and if !apierrors.IsConflict(%s) { return }, or if apierrors.IsConflict(%s) { continue } ... break)", h.line(h.write), err.Name(), err.Name(), err.Name(), err.Name())
	}
	if len(rest) > 0 {
		if why := h.onEachAttempt(rest); why != "" {
			return why
		}
		return fmt.Sprintf("which also runs the statement at line %d on each attempt", h.line(rest[0]))
	}
	return ""
}

// branchIf returns s when it is if <cond> { <tok> } of err, no init, no
// else: cond "!conflict" is !apierrors.IsConflict(err), "conflict"
// apierrors.IsConflict(err), "nil" err == nil. tok ILLEGAL: a body
// ending in a return instead.
func (h *handLoop) branchIf(s ast.Stmt, err types.Object, cond string, tok token.Token) *ast.IfStmt {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
		return nil
	}
	c := ast.Unparen(is.Cond)
	switch cond {
	case "!conflict":
		u, ok := c.(*ast.UnaryExpr)
		if !ok || u.Op != token.NOT {
			return nil
		}
		c = ast.Unparen(u.X)
		fallthrough
	case "conflict":
		call, ok := c.(*ast.CallExpr)
		if !ok || !h.isConflictCall(call) || !h.isVar(call.Args[0], err) {
			return nil
		}
	case "nil":
		b, ok := c.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL || !h.isVar(b.X, err) || !isNil(b.Y) {
			return nil
		}
	}
	last := is.Body.List[len(is.Body.List)-1]
	if tok == token.ILLEGAL {
		if _, ok := last.(*ast.ReturnStmt); !ok || h.leavesLoop(is.Body.List) != "" {
			return nil
		}
		return is
	}
	if b, ok := last.(*ast.BranchStmt); !ok || len(is.Body.List) != 1 || b.Tok != tok || b.Label != nil {
		return nil
	}
	return is
}

// leavesLoop says which statement of list, run after Retry in the
// loop's place, breaks or continues the loop: it would name another.
func (h *handLoop) leavesLoop(list []ast.Stmt) string {
	for _, s := range list {
		cur, ok := h.cursor(s)
		if !ok {
			return "whose code is not in the package's syntax"
		}
		for c := range cur.Preorder((*ast.BranchStmt)(nil), (*ast.FuncLit)(nil)) {
			if b, ok := c.Node().(*ast.BranchStmt); ok && (b.Tok == token.GOTO || b.Label != nil || !innerTarget(c, cur, b.Tok)) {
				return fmt.Sprintf("which also leaves it at line %d", h.line(b))
			}
		}
	}
	return ""
}

// isConflictCall reports whether call is apierrors.IsConflict(x).
func (h *handLoop) isConflictCall(call *ast.CallExpr) bool {
	fn := kube.CalledFunc(h.pass, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "k8s.io/apimachinery/pkg/api/errors" && fn.Name() == "IsConflict" && len(call.Args) == 1
}

// isVar reports whether e names v.
func (h *handLoop) isVar(e ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && h.pass.TypesInfo.ObjectOf(id) == v
}

// line is n's line.
func (h *handLoop) line(n ast.Node) int { return h.pass.Fset.Position(n.Pos()).Line }
