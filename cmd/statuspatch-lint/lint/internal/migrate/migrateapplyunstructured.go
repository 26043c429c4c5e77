package migrate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A server-side apply of the status from an unstructured object, the
// idiomatic shape at controller-runtime's Status().Apply without
// generated apply configurations:
//
//	u := &unstructured.Unstructured{}
//	u.SetAPIVersion(v1.GroupVersion.String())
//	u.SetKind("Widget")
//	u.SetName(w.Name)
//	u.SetNamespace(w.Namespace)
//	err := unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
//	err = r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("o"), client.ForceOwnership)
//
// (or r.Status().Patch(ctx, u, client.Apply, ...)) moves onto apply mode
// as an apply configuration does (migrateapply.go), u.Object["status"]
// given to ApplyStatus: it is exactly the status the object applied. The
// kind is u's when its apiVersion and kind are constants or the
// GroupVersion of a package declaring the kind; the patcher is made from
// the object fetched with Get whose name u takes; u is only built by its
// setters and by unstructured.SetNested*/RemoveNestedField on u.Object
// under "status", before the write.

const unstructuredPkgPath = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// unstructuredWhy ends the reason of an unstructured apply that stays.
const unstructuredWhy = ": -fix moves an unstructured status apply built here by u's setters (apiVersion, kind, name and namespace of a fetched object) and unstructured.SetNested* under \"status\"; make the patcher with patcher.WithWriteMode(patcher.WriteApply) where the object is read, give u.Object[\"status\"] to ApplyStatus and Flush it in place of the write, by hand"

// unstructuredBuild is what the function does with the unstructured
// object it applies.
type unstructuredBuild struct {
	u          *types.Var
	insp       *inspector.Inspector // the package's syntax
	body       *ast.BlockStmt       // the function's, where a local GroupVersion is defined
	kind, gvOf string               // the kind set, and the package its GroupVersion comes from ("" for a constant)
	kindPkg    *types.Package       // the package declaring the kind, nil when the apiVersion is a constant
	name, ns   ast.Expr             // SetName's and SetNamespace's arguments
	status     bool                 // a SetNested* under "status"
	why        string               // why the object is not one -fix moves
	kindSet    string               // why SetKind or SetGroupVersionKind gives no kind known
}

// UnstructuredKind returns the kind an apply or patch of an unstructured
// object applies, as its setters in the function give it: its name and
// the package declaring it (nil for a constant apiVersion). ok is false
// for a write of another shape or a kind not known; why says, for an
// unstructured object whose kind is not known, or an apply of an
// interface-typed configuration whose options apply mode does not send,
// why the write stays.
func UnstructuredKind(pass *analysis.Pass, insp *inspector.Inspector, call *ast.CallExpr) (name string, pkg *types.Package, why string, ok bool) {
	u := unstructuredArg(pass, call)
	if u == nil {
		return "", nil, ifaceApplyWhy(pass, call), false // migrateapplyiface.go
	}
	b := buildOf(pass, insp, call, u)
	if b.kind != "" && (b.gvOf == "" || b.kindPkg != nil) {
		return b.kind, b.kindPkg, "", true
	}
	if b.body == nil {
		return "", nil, "", false // not built in the function
	}
	return "", nil, b.kindWhy() + unstructuredWhy, false
}

// kindWhy is why the setters give u no kind known.
func (b *unstructuredBuild) kindWhy() string {
	switch {
	case b.kindSet != "":
		return b.kindSet
	case b.kind == "":
		return b.u.Name() + "'s kind is not set by SetKind or SetGroupVersionKind with a constant"
	}
	return b.gvOf + " declares no " + b.kind
}

// unstructuredArg returns u of Apply(ctx, client.ApplyConfigurationFromUnstructured(u), ...)
// or Patch(ctx, u, client.Apply, ...) for a variable u of type
// *unstructured.Unstructured, or nil.
func unstructuredArg(pass *analysis.Pass, call *ast.CallExpr) *types.Var {
	if len(call.Args) < 2 {
		return nil
	}
	arg := ast.Unparen(call.Args[1])
	if c, ok := arg.(*ast.CallExpr); ok {
		fn := kube.CalledFunc(pass, c)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.ClientPkgPath || fn.Name() != "ApplyConfigurationFromUnstructured" || len(c.Args) != 1 {
			return nil
		}
		arg = ast.Unparen(c.Args[0])
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	if n := kube.NamedOf(v.Type()); n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != unstructuredPkgPath || n.Obj().Name() != "Unstructured" {
		return nil
	}
	if _, ptr := types.Unalias(v.Type()).(*types.Pointer); !ptr {
		return nil
	}
	return v
}

// buildOf reads every use of u in the function of the write.
func buildOf(pass *analysis.Pass, insp *inspector.Inspector, call *ast.CallExpr, u *types.Var) *unstructuredBuild {
	b := &unstructuredBuild{u: u, insp: insp}
	fd := kube.EnclosingFunc(pass, call.Pos())
	if fd == nil {
		b.why = u.Name() + " is not built in a function declaration"
		return b
	}
	if p := u.Pos(); p < fd.Body.Pos() || p > call.Pos() {
		b.why = u.Name() + " is not declared in " + fd.Name.Name + " before the write"
		return b
	}
	b.body = fd.Body
	body, ok := insp.Root().FindNode(fd.Body)
	if !ok {
		b.why = fd.Name.Name + " is not in the package's syntax"
		return b
	}
	for c := range body.Preorder((*ast.Ident)(nil)) {
		// Every use is read, past one that keeps the write: the kind
		// still names the patcher in the finding.
		why, id := "", c.Node().(*ast.Ident)
		if pass.TypesInfo.Defs[id] == u {
			why = b.defined(stackFrom(fd.Body, c))
		} else if pass.TypesInfo.Uses[id] == u {
			why = b.use(pass, call, stackFrom(fd.Body, c))
		}
		if b.why == "" {
			b.why = why
		}
	}
	if b.kindPkg != nil {
		if _, ok := b.kindPkg.Scope().Lookup(b.kind).(*types.TypeName); !ok {
			b.kindPkg = nil
		}
	}
	switch {
	case b.why != "":
	case b.kind == "":
		b.why = u.Name() + "'s kind is not set by SetKind or SetGroupVersionKind with a constant"
	case b.gvOf != "" && b.kindPkg == nil:
		b.why = b.gvOf + " declares no " + b.kind
	case b.name == nil:
		b.why = u.Name() + " is given no name by SetName"
	case !b.status:
		b.why = u.Name() + " is given no status by unstructured.SetNested*"
	}
	return b
}

// defined returns why u's definition is not u := &unstructured.Unstructured{}.
func (b *unstructuredBuild) defined(stack []ast.Node) string {
	as, ok := stack[len(stack)-2].(*ast.AssignStmt)
	if ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		if lit := typedLiteral(as.Rhs[0]); lit != nil && len(lit.Elts) == 0 {
			if _, amp := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr); amp {
				return ""
			}
		}
	}
	return b.u.Name() + " is not made empty (" + b.u.Name() + " := &unstructured.Unstructured{})"
}

// use returns why a use of u is not one that builds its apiVersion, kind,
// name, namespace or status, or the write's.
func (b *unstructuredBuild) use(pass *analysis.Pass, write *ast.CallExpr, stack []ast.Node) string {
	id := stack[len(stack)-1]
	name := b.u.Name()
	if id.Pos() >= write.End() {
		return name + " is used after the write"
	}
	if id.Pos() >= write.Pos() {
		return "" // the write's argument
	}
	sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
	if !ok || sel.X != id || len(stack) < 4 {
		return name + " is handed on at line " + strconv.Itoa(pass.Fset.Position(id.Pos()).Line)
	}
	call, ok := stack[len(stack)-3].(*ast.CallExpr)
	if !ok {
		return name + "." + sel.Sel.Name + " is used other than by its setters at line " + strconv.Itoa(pass.Fset.Position(id.Pos()).Line)
	}
	if sel.Sel.Name == "Object" {
		return b.nested(pass, call, sel)
	}
	if _, stmt := stack[len(stack)-4].(*ast.ExprStmt); !stmt || call.Fun != sel || len(call.Args) != 1 {
		return name + "." + sel.Sel.Name + " is used other than as a setter at line " + strconv.Itoa(pass.Fset.Position(id.Pos()).Line)
	}
	arg := call.Args[0]
	switch sel.Sel.Name {
	case "SetAPIVersion":
		return b.apiVersion(pass, arg)
	case "SetKind":
		if s, ok := stringConst(pass, arg); ok {
			b.kind = s
			return ""
		}
		b.kindSet = name + "'s kind is not a constant"
		return b.kindSet
	case "SetGroupVersionKind":
		if k, ok := b.groupVersionKind(pass, arg); ok {
			b.kind = k
			return ""
		}
		b.kindSet = name + "'s group, version and kind are not constants (schema.GroupVersionKind{...} or a GroupVersion's WithKind(constant))"
		return b.kindSet
	case "SetName":
		b.name = arg
		return ""
	case "SetNamespace":
		b.ns = arg
		return ""
	}
	return name + "." + sel.Sel.Name + " sets more than the apiVersion, kind, name, namespace and status"
}

// apiVersion records where an apiVersion (a constant, or a package's
// GroupVersion, .String() of it for SetAPIVersion) comes from.
func (b *unstructuredBuild) apiVersion(pass *analysis.Pass, e ast.Expr) string {
	if _, ok := stringConst(pass, e); ok {
		return ""
	}
	e = ast.Unparen(e)
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 0 {
		if s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && s.Sel.Name == "String" {
			e = ast.Unparen(s.X)
		}
	}
	if s, ok := e.(*ast.SelectorExpr); ok {
		if v, ok := pass.TypesInfo.Uses[s.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			b.gvOf = v.Pkg().Path()
			b.kindPkg = v.Pkg()
			return ""
		}
	}
	return b.u.Name() + "'s apiVersion is not a constant or a package's GroupVersion"
}

// nested returns why a use of u.Object is not the object of an
// unstructured.SetNested* or RemoveNestedField call under "status".
func (b *unstructuredBuild) nested(pass *analysis.Pass, call *ast.CallExpr, sel *ast.SelectorExpr) string {
	fn := kube.CalledFunc(pass, call)
	where := " at line " + strconv.Itoa(pass.Fset.Position(sel.Pos()).Line)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != unstructuredPkgPath || len(call.Args) == 0 || call.Args[0] != sel || call.Ellipsis.IsValid() {
		return b.u.Name() + ".Object is used other than by unstructured.SetNested*" + where
	}
	path := 2
	switch {
	case fn.Name() == "RemoveNestedField":
		path = 1
	case !strings.HasPrefix(fn.Name(), "SetNested"):
		return b.u.Name() + ".Object is handed to unstructured." + fn.Name() + where
	}
	if len(call.Args) <= path {
		return "unstructured." + fn.Name() + where + " sets " + b.u.Name() + " whole"
	}
	if s, ok := stringConst(pass, call.Args[path]); !ok || s != "status" {
		return "unstructured." + fn.Name() + where + " sets a field outside the status (" + types.ExprString(call.Args[path]) + ")"
	}
	if path == 2 {
		b.status = true
	}
	return ""
}

func stringConst(pass *analysis.Pass, e ast.Expr) (string, bool) {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// prepareUnstructuredApply recognises an apply of an unstructured object
// built in the function and sets m.obj, m.anchor and m.apply, or returns
// why it cannot move. ok is false for a write of another shape.
func (m *migration) prepareUnstructuredApply(kind string, from int) (why string, ok bool) {
	u := unstructuredArg(m.pass, m.call)
	if u == nil {
		return "", false
	}
	owner, why := optionsOf(&m.place, from).apply()
	if why != "" {
		return m.shapeWhy(why), true
	}
	if m.insp == nil {
		m.cursor(m.call) // builds the inspector
	}
	b := buildOf(m.pass, m.insp, m.call, u)
	if b.why != "" {
		return m.shapeWhy(b.why + unstructuredWhy), true
	}
	if b.ns != nil {
		n, _ := kube.RootIdent(b.name)
		s, _ := kube.RootIdent(b.ns)
		if n == nil || s == nil || m.pass.TypesInfo.ObjectOf(n) != m.pass.TypesInfo.ObjectOf(s) {
			return m.shapeWhy(u.Name() + "'s name and namespace are not one object's" + unstructuredWhy), true
		}
	}
	named := kube.NamedByName(m.pass, b.name, kube.FetchedObjects(m.pass, b.name, kind))
	if len(named) == 0 && enclosingHelperParam(m, b.name) == nil {
		return m.shapeWhy(u.Name() + " is named by " + types.ExprString(b.name) + ", not by a " + kind + " fetched with Get before it" + unstructuredWhy), true
	}
	uid := ast.NewIdent(u.Name())
	if why := m.applyFrom(named, b.name, kind, u.Name(), uid, owner); why != "" {
		return why + unstructuredWhy, true
	}
	if m.apply != nil {
		m.apply.status = u.Name() + `.Object["status"]`
	}
	return "", true
}

// enclosingHelperParam returns the parameter of the write's function that
// name is of, or nil.
func enclosingHelperParam(m *migration, name ast.Expr) *types.Var {
	id, ok := kube.RootIdent(name)
	if !ok {
		return nil
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || m.paramOf(v) == "" {
		return nil
	}
	return v
}
