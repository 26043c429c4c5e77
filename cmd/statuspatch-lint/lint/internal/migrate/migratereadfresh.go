package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// A write of the object outside its status between its read and its copy
// (migrateread.go) is a read again when its answer is decoded into the
// object: c.Update(ctx, &w), c.Patch(ctx, &w, p) or c.Create(ctx, &w) of
// the object's own memory, not dry run, whose error returns (on a failure
// controller-runtime's clients decode nothing, and w keeps what was not
// stored). After it w holds what the server stored at its new
// resourceVersion, as after a Get, and a copy taken after it is the copy
// of a read. A change before it, in its statement list with no break,
// continue or goto between, is stored by it on every path that goes on to
// the copy (kueue's AddFinalizer, then Update, clusterqueue_controller.go
// lines 181-182). A change on a path that skips it still blocks, and so
// does one after it.
//
// A status write of the object between stays a write that blocks
// (writeOfBetween): it is itself a handwritten status write, which -fix
// moves onto the patcher made at the read; a patcher made again at the
// copy would be a second life of one object alive beside the first
// (issue 80's orderPatcher2), and the patcher's base rules (its Flush
// re-bases only on what its own base or write left) do not take a write
// of another patcher as its read.

// refreshes is each call between from and to in m's function that writes
// old's own memory outside its status and, its error returning, leaves
// it what the server stored, by the statement that holds it in its list
// (the if of if err := c.Update(...); err != nil, or err := c.Update(...)
// followed by such an if).
func refreshes(m reads, old *types.Var, from, to token.Pos) map[*ast.CallExpr]ast.Stmt {
	out := map[*ast.CallExpr]ast.Stmt{}
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if !ok {
		return out
	}
	olds := newAliases(m.pass.TypesInfo, fn, old)
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.Pos() < from || call.Pos() >= to || inNestedLit(cur, root) || !m.decodesInto(call, olds) {
			continue // a literal's return is not the function's: its error may go on
		}
		if s := errReturnStmt(m.pass, cur); s != nil {
			out[call] = s
		}
	}
	return out
}

// decodesInto reports whether call writes the object outside its status
// through a client whose answer is decoded into its argument: Update,
// Patch or Create of a name of olds' own memory (not a copy), without a
// dry-run option.
func (m reads) decodesInto(call *ast.CallExpr, olds *aliases) bool {
	if len(call.Args) < 2 {
		return false
	}
	if _, status := statusReceiver(call); status {
		return false
	}
	verb := decodeVerb(m, call)
	if verb != "Update" && verb != "Patch" && verb != "Create" {
		return false
	}
	if dryRun(call, verb) {
		return false
	}
	al, ok := olds.of(call.Args[1])
	return ok && al.kind == aliasSame
}

// decodeVerb is the client write verb of call: Update, Patch, Create (or
// another of clientWrite's), "" when it is none.
func decodeVerb(m reads, call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Create" && holdsClient(&m.calls, sel.X) {
		return "Create"
	}
	return m.clientWrite(call)
}

// dryRun reports whether an option of the client write call names a dry
// run, or may (client.DryRunAll, an options literal's DryRun field, and
// any option that is not a client.FieldOwner(...), FieldValidation(...)
// or ForceOwnership written there: opts..., a variable, a parameter): the
// answer decoded into the object is then what the server would store, not
// what it stored.
func dryRun(call *ast.CallExpr, verb string) bool {
	if call.Ellipsis.IsValid() {
		return true
	}
	first := 2 // ctx, obj, then the options; a Patch's patch before them
	if verb == "Patch" {
		first = 3
	}
	for _, opt := range call.Args[min(first, len(call.Args)):] {
		text := types.ExprString(opt)
		if strings.Contains(text, "DryRun") {
			return true
		}
		name := text
		if c, ok := ast.Unparen(opt).(*ast.CallExpr); ok {
			name = types.ExprString(c.Fun)
		}
		if !knownOptions[name[strings.LastIndex(name, ".")+1:]] || !strings.Contains(name, ".") {
			return true
		}
	}
	return false
}

// knownOptions are the client options, by name, that are no dry run.
var knownOptions = map[string]bool{"FieldOwner": true, "FieldValidation": true, "ForceOwnership": true}

// inNestedLit reports whether cur lies in a function literal inside root.
func inNestedLit(cur, root inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.FuncLit)(nil)) {
		return e != root
	}
	return false
}

// errReturnStmt is the statement of cur's call, in its list, after which
// the call succeeded: if err := call; err != nil { ...; return }, or err
// := call (or err = call) followed by if err != nil { ...; return }; nil
// when its error may go on.
func errReturnStmt(pass *analysis.Pass, cur inspector.Cursor) ast.Stmt {
	is := errCheck(pass, cur)
	switch {
	case is == nil || !terminates(is.Body):
		return nil
	case is.Init != nil:
		return is
	}
	return callStmt(cur).Node().(ast.Stmt)
}

// errCheck is the if that checks the error of cur's call where the
// call's statement gives it to a variable: if err := call; err != nil
// {...}, or err := call (err = call) followed in its list by if err !=
// nil {...} with no init; nil when there is none. Its body and else are
// the caller's to judge.
func errCheck(pass *analysis.Pass, cur inspector.Cursor) *ast.IfStmt {
	stmt := callStmt(cur)
	as, ok := stmt.Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != cur.Node() {
		return nil
	}
	v := identOf(pass, as.Lhs[0])
	if v == nil {
		return nil // _ = call
	}
	switch stmt.ParentEdgeKind() {
	case edge.IfStmt_Init:
		if is := stmt.Parent().Node().(*ast.IfStmt); isNotNil(pass, is.Cond, v) {
			return is
		}
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		if next, ok := stmt.NextSibling(); ok {
			if is, ok := next.Node().(*ast.IfStmt); ok && is.Init == nil && isNotNil(pass, is.Cond, v) {
				return is
			}
		}
	}
	return nil
}

// callStmt is the cursor of the node holding cur's call, past parens.
func callStmt(cur inspector.Cursor) inspector.Cursor {
	up := cur.Parent()
	for {
		if _, ok := up.Node().(*ast.ParenExpr); !ok {
			return up
		}
		up = up.Parent()
	}
}

// refreshed reports whether the change at n is stored by one of fresh's
// writes on every path from it that goes on: a statement enclosing n
// (outside a function literal) is followed in its list by the write's
// statement, and no break, continue or goto lies between them.
func refreshed(m reads, fresh map[*ast.CallExpr]ast.Stmt, n ast.Node) bool {
	if len(fresh) == 0 || !storedOutsideStatus(m, n) {
		return false
	}
	stmts := map[ast.Stmt]bool{}
	for _, s := range fresh {
		stmts[s] = true
	}
	cur, ok := m.cursor(n)
	if !ok {
		return false
	}
	for c := range cur.Enclosing() {
		switch c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
		switch c.ParentEdgeKind() {
		case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		default:
			continue
		}
		for s, ok := c.NextSibling(); ok; s, ok = s.NextSibling() {
			if stmts[s.Node().(ast.Stmt)] {
				return !jumpsBetween(m, n.Pos(), s.Node().Pos())
			}
		}
	}
	return false
}

// jumpsBetween reports whether a break, continue or goto of m's function,
// outside its function literals, lies from from to to.
func jumpsBetween(m reads, from, to token.Pos) bool {
	root, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return true
	}
	for c := range root.Preorder((*ast.BranchStmt)(nil)) {
		b := c.Node().(*ast.BranchStmt)
		if b.Pos() < from || b.Pos() >= to || b.Tok == token.FALLTHROUGH {
			continue
		}
		inLit := false
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			inLit = e != root
			break
		}
		if !inLit {
			return true
		}
	}
	return false
}

// inFresh reports whether n is in an argument of one of fresh's writes.
func inFresh(fresh map[*ast.CallExpr]ast.Stmt, n ast.Node) bool {
	for call := range fresh {
		if call.Lparen < n.Pos() && n.End() <= call.Rparen {
			return true
		}
	}
	return false
}

// onlyReads reports whether the use of the object at c (a name of its
// memory, or the outermost field chain from it) only reads it, by the
// package's evidence of readers: a method whose body only reads it
// (readsFunc: getters, a timestamp's comparisons; not a DeepCopy, whose
// write would move the resourceVersion) and whose result holds no
// reference or goes only where chainChange shows it read; the object or
// its address given to one of readsObject's functions at the argument it
// reads (controllerutil.ContainsFinalizer); a comparison.
func onlyReads(m reads, c inspector.Cursor) bool {
	p := c.Parent()
	switch pn := p.Node().(type) {
	case *ast.SelectorExpr:
		s := m.pass.TypesInfo.Selections[pn]
		if pn.X != c.Node() || s == nil || s.Kind() != types.MethodVal || strings.HasPrefix(s.Obj().Name(), "DeepCopy") || !readsMethod(m.pass, s) {
			return false
		}
		call := p.Parent()
		if ce, ok := call.Node().(*ast.CallExpr); !ok || ce.Fun != pn {
			return false
		}
		if endsRead(s) {
			return true
		}
		stack := stackFrom(m.enclosingFunc(), call)
		direct, how := m.refs().chainChange(stack, len(stack)-1)
		return !direct && how == ""
	case *ast.UnaryExpr:
		return pn.Op == token.AND && readByCall(m, p)
	case *ast.CallExpr:
		return readByCall(m, c)
	case *ast.BinaryExpr:
		return pn.Op == token.EQL || pn.Op == token.NEQ
	}
	return false
}

// readByCall reports whether arg is an argument of a call of one of
// readsObject's functions at the place the function only reads.
func readByCall(m reads, arg inspector.Cursor) bool {
	k, i := arg.ParentEdge()
	call, ok := arg.Parent().Node().(*ast.CallExpr)
	if !ok || k != edge.CallExpr_Args || call.Ellipsis.IsValid() {
		return false
	}
	fn := kube.CalledFunc(m.pass, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	at, ok := readsObject[fn.Pkg().Path()][fn.Name()]
	return ok && (at == i || at == anyArg)
}

// storedOutsideStatus reports whether the change at n is one a write of
// the object outside its status stores: not through its status (an
// Update or Patch of the main resource leaves the status the server
// held, and its answer, decoded into the object, may leave an omitempty
// field as memory had it), and, where the object is handed on, to
// controllerutil's AddFinalizer or RemoveFinalizer, a metadata setter of
// it (w.SetLabels) or its DeepCopy (the base of a merge patch that sends
// from it): a call that may change its status is not.
func storedOutsideStatus(m reads, n ast.Node) bool {
	e, ok := n.(ast.Expr)
	if !ok {
		return false
	}
	if _, call := e.(*ast.CallExpr); call || throughStatus(e) {
		return false // a function value's call, or the status
	}
	cur, ok := m.cursor(n)
	if !ok {
		return false
	}
	if u, ok := cur.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		cur = cur.Parent()
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.CallExpr: // the object handed to a function
		fn := kube.CalledFunc(m.pass, p)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == controllerutilPath && changesFinalizers[fn.Name()]
	case *ast.SelectorExpr: // a method of it: a metadata setter, or a DeepCopy (a base the write sends from)
		s := m.pass.TypesInfo.Selections[p]
		if s == nil || s.Kind() != types.MethodVal {
			return false
		}
		name := s.Obj().Name()
		return strings.HasPrefix(name, "DeepCopy") ||
			strings.HasPrefix(name, "Set") && s.Obj().Pkg() != nil && s.Obj().Pkg().Path() == "k8s.io/apimachinery/pkg/apis/meta/v1"
	}
	return true // a field outside the status
}
