package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// calls recognises what the package's calls and functions do: the
// client's methods and writes, client.MergeFrom, the error check after a
// call, read-only getters, the helpers its tests or interfaces may call.
// It knows only the pass.
type calls struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl // the package's functions, when built (ExportParamFacts)
	insp  *inspector.Inspector          // the package's syntax (Files.Inspector)
	// aloneMoves: an exported helper of another package only the whole
	// module moves (HelperFact.Alone) is taken as moving (aloneAsked).
	aloneMoves bool
	// recvAssumed: a method of an interface of the module called on the
	// object is assumed, for the module's driver to judge by every
	// implementation (paramsimplsrecv.go); nil, none is.
	recvAssumed *[]IfaceCall
}

// cursor is n's place in the package's syntax.
func (c *calls) cursor(n ast.Node) (inspector.Cursor, bool) {
	if c.insp == nil {
		c.insp = inspector.New(c.pass.Files)
	}
	return c.insp.Root().FindNode(n)
}

// checksErr reports whether s is an if statement whose condition uses a
// variable that as assigns.
func (c *calls) checksErr(s ast.Stmt, as *ast.AssignStmt) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil {
		return false
	}
	vars := map[types.Object]bool{}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if o := c.pass.TypesInfo.ObjectOf(id); o != nil {
				vars[o] = true
			}
		}
	}
	uses := false
	ast.Inspect(is.Cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[c.pass.TypesInfo.Uses[id]] {
			uses = true
		}
		return !uses
	})
	return uses
}

// isMergeFrom reports whether call is client.MergeFrom(x), or
// client.MergeFromWithOptions(x) with at most the optimistic lock as
// option: a merge patch of the status from x, what Flush sends.
func (c *calls) isMergeFrom(call *ast.CallExpr) bool {
	fn := kube.CalledFunc(c.pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.ClientPkgPath || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return false
	}
	switch fn.Name() {
	case "MergeFrom":
		return len(call.Args) == 1
	case "MergeFromWithOptions":
		for _, a := range call.Args[1:] {
			if n := kube.NamedOf(c.pass.TypesInfo.TypeOf(a)); n == nil || n.Obj().Name() != "MergeFromWithOptimisticLock" {
				return false
			}
		}
		return true
	}
	return false
}

// isClient reports whether e's type implements client.Client.
func (c *calls) isClient(e ast.Expr) bool {
	return c.implementsClient(c.pass.TypesInfo.TypeOf(e))
}

// holdsClient reports whether e is a client.Client or embeds one
// (embedsClient): its Get, Status() and writes are the client's.
func holdsClient(c *calls, e ast.Expr) bool {
	return c.isClient(e) || embedsClient(c, c.pass.TypesInfo.TypeOf(e))
}

// embedsClient reports whether t embeds a client.Client as its field
// Client: kubebuilder's reconciler, whose Scheme field hides the
// client's Scheme method, is no client.Client; its embedded field is.
func embedsClient(c *calls, t types.Type) bool {
	if t == nil {
		return false
	}
	f, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, "Client")
	v, ok := f.(*types.Var)
	return ok && v.Embedded() && c.implementsClient(v.Type())
}

// implementsClient reports whether t implements client.Client.
func (c *calls) implementsClient(t types.Type) bool {
	pkg := importedPkg(c.pass.Pkg, kube.ClientPkgPath)
	if t == nil || pkg == nil {
		return false
	}
	tn, ok := pkg.Scope().Lookup("Client").(*types.TypeName)
	if !ok {
		return false
	}
	iface, ok := tn.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}

// testsMayCall says why a test file of the package may call name, or "".
func (c *calls) testsMayCall(name string, opts Options) string {
	for _, f := range c.pass.Files {
		if testFile(c.pass, f) {
			return "" // loaded: their calls are among the uses checked
		}
	}
	for _, e := range strings.Split(opts.TestRefs, ",") {
		pkg, names, ok := strings.Cut(e, "=")
		if ok && pkg == c.pass.Pkg.Path() {
			if slices.Contains(strings.Split(names, "+"), name) {
				return "a test file of the package uses " + name + ": its calls there cannot be moved"
			}
			return ""
		}
	}
	return "the package's test files are not loaded, and one may call " + name + " (statuspatch-lint -fix scans them)"
}

// testFile reports whether f is a _test.go file.
func testFile(pass *analysis.Pass, f *ast.File) bool {
	tf := pass.Fset.File(f.FileStart)
	return tf != nil && strings.HasSuffix(tf.Name(), "_test.go")
}

// interfaceHas reports whether an interface type of the package has a
// method called name.
func (c *calls) interfaceHas(name string) bool {
	for _, o := range c.pass.TypesInfo.Defs {
		if tn, ok := o.(*types.TypeName); ok {
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				for i := 0; i < it.NumMethods(); i++ {
					if it.Method(i).Name() == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// directMethod reports whether call's method is declared on its
// receiver's own type, not promoted from an embedded field.
func (c *calls) directMethod(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.pass.TypesInfo.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal && len(s.Index()) == 1
}

// isClientMerge reports whether e is client.Merge.
func (c *calls) isClientMerge(e ast.Expr) bool {
	return c.isClientVar(e, "Merge")
}

// isClientVar reports whether e names the client package's variable name.
func (c *calls) isClientVar(e ast.Expr, name string) bool {
	v, ok := c.clientObject(e).(*types.Var)
	return ok && v.Name() == name && v.Parent() == v.Pkg().Scope()
}

// isClientType reports whether e names the client package's type name
// (client.FieldOwner, a conversion).
func (c *calls) isClientType(e ast.Expr, name string) bool {
	tn, ok := c.clientObject(e).(*types.TypeName)
	return ok && tn.Name() == name
}

// clientObject is what e (x or pkg.x) names when it is declared in the
// controller-runtime client package, else nil.
func (c *calls) clientObject(e ast.Expr) types.Object {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil
	}
	o := c.pass.TypesInfo.Uses[id]
	if o == nil || o.Pkg() == nil || o.Pkg().Path() != kube.ClientPkgPath {
		return nil
	}
	return o
}

// isReadingGetter reports whether fn is, statement by statement:
//
//	obj := &T{}
//	if err := c.Get(ctx, key, obj); err != nil {
//		return nil, err
//	}
//	return obj, nil
//
// (or err := c.Get(...) then the if): its object result, when not nil,
// is what the server stored.
func (c *calls) isReadingGetter(fn *types.Func) bool {
	fd := c.funcDecl(fn)
	if fd == nil || fd.Body == nil || fn.Signature().Results().Len() != 2 {
		return false
	}
	list := fd.Body.List
	if len(list) < 3 {
		return false
	}
	as, ok := list[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	if cl, ok := u.X.(*ast.CompositeLit); !ok || len(cl.Elts) != 0 {
		return false
	}
	id, _ := as.Lhs[0].(*ast.Ident)
	obj, _ := c.pass.TypesInfo.Defs[id].(*types.Var)
	g := &migration{site: site{place: place{calls: *c}}, obj: obj}
	if obj == nil || !g.reads().isGetStmt(list[1]) {
		return false
	}
	get := 1
	if a, ok := list[1].(*ast.AssignStmt); ok {
		if len(list) != 4 || !g.checksErr(list[2], a) || !returnsNilFirst(list[2].(*ast.IfStmt).Body) {
			return false
		}
		get = 2
	} else if is, ok := list[1].(*ast.IfStmt); !ok || !returnsNilFirst(is.Body) || len(list) != 3 {
		return false
	}
	ret, ok := list[get+1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 2 {
		return false
	}
	r, ok := ast.Unparen(ret.Results[0]).(*ast.Ident)
	return ok && c.pass.TypesInfo.Uses[r] == obj && isNil(ret.Results[1])
}

// funcDecl returns the declaration of fn in the package's files: from
// decls when it is set (ExportParamFacts builds it once per package), else
// by a walk over the files.
func (c *calls) funcDecl(fn *types.Func) *ast.FuncDecl {
	if c.decls != nil {
		return c.decls[fn]
	}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && c.pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// clientWrite returns "Get", "Update", "Patch" or "Delete" for c.Get,
// c.Update, c.Patch or c.Delete on a client.Client (not its status
// writer), else "".
func (c *calls) clientWrite(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch sel.Sel.Name {
	case "Get", "Update", "Patch", "Delete":
	default:
		return ""
	}
	if c.isClient(sel.X) {
		return sel.Sel.Name
	}
	// A method of client.Reader or client.Writer promoted from an embedded
	// client (not SubResourceWriter's: that is a status write).
	fn, _ := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.ClientPkgPath || fn.Signature().Recv() == nil {
		return ""
	}
	if n := kube.NamedOf(fn.Signature().Recv().Type()); n != nil && (n.Obj().Name() == "Reader" || n.Obj().Name() == "Writer" || n.Obj().Name() == "Client") {
		return sel.Sel.Name
	}
	return ""
}

// savedLater reports whether a statement after the one holding call,
// in the nearest statement list around it, writes v with c.Update or
// c.Patch; or, for call the condition of an if (`if
// controllerutil.AddFinalizer(obj, f) { ... }`, true when it changed
// the list), whether the if's body does.
func (c *calls) savedLater(call *ast.CallExpr, v *types.Var) bool {
	cur, ok := c.cursor(call)
	if !ok {
		return false
	}
	writes := func(s inspector.Cursor) bool {
		for n := range s.Preorder((*ast.CallExpr)(nil)) {
			w := n.Node().(*ast.CallExpr)
			if verb := c.clientWrite(w); (verb == "Update" || verb == "Patch") && len(w.Args) > 1 {
				if id, ok := ast.Unparen(w.Args[1]).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
					return true
				}
			}
		}
		return false
	}
	if cur.ParentEdgeKind() == edge.IfStmt_Cond {
		return writes(cur.Parent().ChildAt(edge.IfStmt_Body, -1))
	}
	for stmt := range cur.Enclosing() {
		switch stmt.ParentEdgeKind() {
		case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
			for s, ok := stmt.NextSibling(); ok; s, ok = s.NextSibling() {
				if writes(s) {
					return true
				}
			}
			return false
		case edge.CaseClause_List, edge.CommClause_Comm:
			return false // a case's expression or communication: in no list
		}
	}
	return false
}
