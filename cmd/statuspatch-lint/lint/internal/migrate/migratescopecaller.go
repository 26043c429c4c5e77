package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A scope field's callers (migratescopefield.go): each passes a scope it
// builds as a literal with a new object in the field, reads that field
// with Get in an if before the call, and between the Get and the call
// only reads the field, or hands the scope to another function of the
// package whose writes move beside it too.

// scopeCaller checks one call of a scope field's helper, c.call, and sets
// c.anchor to the statement its Get of the scope's field ends: the
// patcher is made after it. It returns the client the patcher is made
// with and its rest, or why the caller cannot give it.
func scopeCaller(h *helperMove, c *migration, sc *scopeField, recv ast.Expr, index int, recvRoot bool, clientRest string, line int, files Files, ws []*Write, opts Options) (ast.Expr, string, string) {
	id, ok := ast.Unparen(c.call.Args[slices.Index(h.params(), sc.param)]).(*ast.Ident)
	v, _ := c.pass.TypesInfo.Uses[id].(*types.Var)
	lit := (*ast.CompositeLit)(nil)
	if ok && v != nil {
		lit = c.builtReceiver(id)
	}
	if lit == nil {
		return nil, "", fmt.Sprintf("its call at line %d does not pass a scope built as a literal in its caller", line)
	}
	val := literalField(c.pass, lit, sc.field.Name())
	if _, empty := newValue(c.pass.TypesInfo, val); !empty {
		what := "without it"
		if val != nil {
			what = "with " + c.text().source(val)
		}
		return nil, "", fmt.Sprintf("its caller at line %d builds %s's %s %s, not a new object (&T{} or new(T)) that only the field holds", line, v.Name(), sc.field.Name(), what)
	}
	clientExpr := recv
	if !recvRoot {
		clientExpr = c.call.Args[index]
	}
	clientExpr, rest, w := h.callerClient(c, clientExpr, recvRoot, clientRest, line)
	if w != "" {
		return nil, "", w
	}
	if recvRoot && !h.directMethod(c.call) {
		return nil, "", fmt.Sprintf("its call at line %d reaches it through an embedded field", line)
	}
	for _, list := range c.enclosingLists() {
		for _, s := range list {
			if s.End() <= c.call.Pos() && fieldGetStmt(c, s, v, sc.field) {
				c.anchor = s
			}
		}
	}
	if c.anchor == nil {
		return nil, "", fmt.Sprintf("its caller at line %d does not read %s.%s with Get in an if before the call", line, v.Name(), sc.field.Name())
	}
	if at := clientAssigned(&c.place, clientExpr, c.anchor.End(), c.call.Pos()); at.IsValid() {
		return nil, "", fmt.Sprintf("its call at line %d names its client %s, assigned at %s, after the Get the patcher is made at", line, types.ExprString(clientExpr), c.where(at))
	}
	fn := c.enclosingFunc()
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if ok && fn.Pos() <= call.Pos() && call.End() <= fn.End() && len(call.Args) > 1 && usesVar(c.pass, call.Args[1], v) {
			return nil, "", fmt.Sprintf("its caller at line %d writes %s.%s's status itself at line %d: move them by hand", line, v.Name(), sc.field.Name(), c.pass.Fset.Position(call.Pos()).Line)
		}
	}
	// Between the Get and the call, and before the Get too: a method
	// called there may keep a pointer into the object, or the scope be
	// handed on, as after it (issue 80).
	for _, span := range [][2]token.Pos{{lit.End(), c.anchor.Pos()}, {c.anchor.End(), c.call.Pos()}} {
		for cur := range c.usesOf(fn, v, span[0], span[1]) {
			if w := scopeReadOnly(c, pathOf(cur), sc.field, h.decl, files, ws, opts); w != "" {
				return nil, "", fmt.Sprintf("its caller at line %d: %s", line, w)
			}
		}
	}
	return clientExpr, rest, ""
}

// fieldGetStmt reports whether s is if err := c.Get(ctx, key, v.F); ... .
func fieldGetStmt(c *migration, s ast.Stmt, v, f *types.Var) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init == nil {
		return false
	}
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 3 || c.clientWrite(call) != "Get" {
		return false
	}
	sel, ok := ast.Unparen(call.Args[2]).(*ast.SelectorExpr)
	return ok && c.pass.TypesInfo.Selections[sel] != nil && c.pass.TypesInfo.Selections[sel].Obj() == f && usesVar(c.pass, sel.X, v)
}

// usesVar reports whether e is v, or a selection from v.
func usesVar(pass *analysis.Pass, e ast.Expr, v *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return pass.TypesInfo.Uses[x] == v
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}

// scopeReadOnly says why a use id of the caller's scope, between its Get
// and the call, may change the object: its field f assigned, its address
// taken or handed to a call (but a method of metav1.Time, which reads);
// or the scope handed to a function of the package other than skip whose
// writes do not move too (a phase's other sub-reconciler does).
func scopeReadOnly(c *migration, path []ast.Node, f *types.Var, skip *ast.FuncDecl, files Files, ws []*Write, opts Options) string {
	id := path[0].(*ast.Ident)
	at := c.where(id.Pos())
	sel, ok := path[1].(*ast.SelectorExpr)
	if !ok {
		call, ok := path[1].(*ast.CallExpr)
		if !ok || !slices.Contains(call.Args, ast.Expr(id)) {
			return fmt.Sprintf("%s is handed on or aliased at %s", id.Name, at)
		}
		fd := c.funcDecl(kube.CalledFunc(c.pass, call))
		if fd == nil || fd == skip {
			return fmt.Sprintf("%s is handed to %s at %s, whose changes are not followed", id.Name, types.ExprString(call.Fun), at)
		}
		writes := 0
		for _, o := range ws {
			wc, ok := files.Calls[o.Lparen]
			if !ok || wc.Pos() < fd.Pos() || wc.End() > fd.End() {
				continue
			}
			writes++
			if _, busy := helperFixing.LoadOrStore(wc, struct{}{}); busy {
				return fmt.Sprintf("%s is handed to %s at %s, whose writes move only with this one", id.Name, fd.Name.Name, at)
			}
			fix, _ := Fix(c.pass, files, opts, ws, o)
			helperFixing.Delete(wc)
			if fix == nil || !strings.Contains(fix.Message, " takes the patcher beside ") {
				return fmt.Sprintf("%s is handed to %s at %s, whose status write at line %d does not move", id.Name, fd.Name.Name, at, c.pass.Fset.Position(wc.Pos()).Line)
			}
		}
		if writes == 0 {
			return fmt.Sprintf("%s is handed to %s at %s, whose changes are not followed", id.Name, fd.Name.Name, at)
		}
		return ""
	}
	if w := scopeMethod(c, path, f); w != "" {
		return w
	}
	if s := c.pass.TypesInfo.Selections[sel]; s == nil || s.Obj() != f {
		return "" // another field of the scope, or a method reading only those
	}
	i := 1
	for i+1 < len(path) {
		if next, ok := path[i+1].(*ast.SelectorExpr); ok && next.X == path[i] {
			i++
			continue
		}
		break
	}
	top := path[i].(ast.Expr)
	_, basic := types.Unalias(c.pass.TypesInfo.TypeOf(top)).Underlying().(*types.Basic)
	switch p := path[i+1].(type) {
	case *ast.BinaryExpr:
		return "" // compared, or computed with
	case *ast.UnaryExpr:
		if p.Op != token.AND {
			return ""
		}
		return fmt.Sprintf("the address of %s is taken at %s", types.ExprString(top), at)
	case *ast.CallExpr:
		if p.Fun != top {
			break
		}
		if fn := kube.CalledFunc(c.pass, p); i >= 3 && fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == metav1Path && strings.HasPrefix(types.TypeString(fn.Signature().Recv().Type(), nil), "*"+metav1Path+".Time") {
			return "" // scope.Machine.DeletionTimestamp.IsZero()
		}
		return fmt.Sprintf("%s is called at %s, which may change it", types.ExprString(top), at)
	case *ast.AssignStmt:
		if isLHS(p, top) {
			return fmt.Sprintf("%s is assigned at %s", types.ExprString(top), at)
		}
	case *ast.IncDecStmt:
		return fmt.Sprintf("%s is changed at %s", types.ExprString(top), at)
	}
	if basic {
		return "" // a value with no reference into the object
	}
	return fmt.Sprintf("%s is used at %s in a way -fix does not follow (only its values are read, compared, or a metav1.Time's methods called)", types.ExprString(top), at)
}

// metav1Path is apimachinery's meta/v1, whose Time's methods read.
const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"
