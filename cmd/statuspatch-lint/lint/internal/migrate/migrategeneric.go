package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// A kindHelper is a status write in a helper over objects of any kind:
// its object a parameter typed by a type parameter T constrained by
// client.Object, or typed client.Object itself, written with
// c.Status().Update(ctx, obj) or c.Status().Patch(ctx, obj,
// client.MergeFrom(base)) of a base parameter:
//
//	func patchStatus[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
//		return c.Status().Patch(ctx, obj, client.MergeFrom(base))
//	}
//
// The write has no kind of its own: each caller's object has one. The
// helper takes the generic patcher instead (*patcher.Patcher[T], a type
// parameter added for a client.Object parameter), its object the
// patcher's Object() and its write Flush; each caller makes its kind's
// patcher where it took the base (base := obj.DeepCopy(), or, for
// Update, passes one made at the call) and hands over its Patcher().
// Every caller moves, or none; the helper is not exported (its callers
// in other packages are not seen) and is only called.
type kindHelper struct {
	*site
	fd         *ast.FuncDecl
	fn         *types.Func
	obj, base  int // the indexes of the object's and the base's parameters (base -1 for Update)
	client     int // the client's, when the write is its only use: dropped, else -1
	tparam     string
	newT       bool // a client.Object parameter: T is added
	objUsed    bool // the object is used other than by the write
	name       string
	patcherOf  func(types.Type) *Patcher
	callers    []*kindCaller
	params     []*types.Var
	objectText string                // the object parameter's type, as the helper's file spells it
	writes     []*ast.CallExpr       // the package's other status writes
	named      map[ast.Node][]string // the patcher names callers took, by function
	anyPatched bool                  // a caller passes an object of a kind with a generated patcher
	iface      bool                  // the object's type is an interface of the module embedding client.Object (T Conditioned)
	exported   bool                  // exported, moving with its callers in other packages (migrategenericexported.go)
	method     *ifaceMethod          // a method over the interface: it takes the package's StatusPatcher (migrateifacemethod.go)

	// The package's writes, to plan the callers' own (migrategenericlife.go).
	files Files
	opts  Options
	ws    []*Write
}

// A kindCaller is a call of a kindHelper.
type kindCaller struct {
	*site
	base    ast.Stmt // base := obj.DeepCopy(), made the patcher (Patch)
	before  ast.Stmt // the call's statement, before which the patcher is made (Update)
	obj     string
	client  string
	patcher Patcher
	name    string

	// The call's life (migrategenericlife.go).
	clientExpr    ast.Expr
	get, getCheck ast.Stmt   // the Get an Update's patcher is made after, and its error's if
	shared        string     // the patcher of the function's own writes of the object, which the call passes
	made          ast.Stmt   // the read the patcher is made after, the base dropped
	late          ast.Stmt   // the base, dropped
	retry         *retryPlan // the call made the patcher's Retry, the decision its mutate
	m             *migration // the call seen as a write, for retry's text
}

// kindHelperOf returns the helper w is the write of, nil when w is not
// one, or why it stays.
func kindHelperOf(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write) (*kindHelper, string) {
	call, ok := files.Calls[w.Lparen]
	if !ok || w.Generated || opts.PatcherOf == nil || (w.Verb != "Patch" && w.Verb != "Update") {
		return nil, ""
	}
	h := &kindHelper{site: &site{place: place{calls: calls{pass: pass, insp: files.Inspector}, call: call}}, patcherOf: opts.PatcherOf, client: -1, base: -1, files: files, opts: opts, ws: ws}
	cur, ok := h.cursor(call)
	if !ok {
		return nil, ""
	}
	h.path = pathOf(cur)
	h.file = h.path[len(h.path)-1].(*ast.File)
	c, ok := statusReceiver(call)
	fd, _ := h.enclosingFunc().(*ast.FuncDecl)
	if !ok || fd == nil || len(call.Args) != map[string]int{"Patch": 3, "Update": 2}[w.Verb] {
		return nil, ""
	}
	h.fd = fd
	h.fn, _ = pass.TypesInfo.Defs[fd.Name].(*types.Func)
	for v, f := range paramFields(pass, fd) {
		if len(f.Names) == 0 {
			return nil, "" // unnamed: the helper's parameters are not the object's to follow
		}
		h.params = append(h.params, v)
	}
	if h.obj = h.paramIndex(call.Args[1]); h.obj < 0 || !h.anyKind(h.params[h.obj].Type()) || fd.Recv != nil && !h.iface {
		return nil, ""
	}
	if fd.Recv != nil {
		h.method = &ifaceMethod{h: h}
	}
	if w.Verb == "Patch" && h.method != nil {
		if !h.method.takesBase() {
			return nil, ""
		}
	} else if w.Verb == "Patch" {
		mf, ok := ast.Unparen(call.Args[2]).(*ast.CallExpr)
		if !ok || !h.isMergeFrom(mf) {
			return nil, ""
		}
		if h.base = h.paramIndex(mf.Args[0]); h.base < 0 || !types.Identical(h.params[h.base].Type(), h.params[h.obj].Type()) || h.uses(h.params[h.base]) != 1 {
			return nil, ""
		}
	}
	if i := h.paramIndex(c); i >= 0 && h.uses(h.params[i]) == 1 {
		h.client = i
	}
	h.objUsed = h.uses(h.params[h.obj]) > 1
	h.objectText = h.text().source(h.fieldTypes()[h.obj])
	for _, o := range ws {
		if oc, ok := files.Calls[o.Lparen]; ok && oc != call {
			h.writes = append(h.writes, oc)
		}
	}
	if h.fn == nil {
		return nil, ""
	}
	why := h.findCallers(files, opts)
	switch {
	case h.method != nil && h.fn.Exported():
		why = fd.Name.Name + " is exported: -fix moves a method over an interface only when it is not, its callers all in its own package"
	case h.method != nil && why == "":
		why = h.testsMayCall(fd.Name.Name, opts)
	case h.method != nil:
	case h.fn.Exported() && h.iface:
		why = h.exportedWhy(why, opts) // migrategenericexported.go
	case h.fn.Exported():
		why = fmt.Sprintf("%s is exported, and its callers in other packages are not seen: make it take the patcher (*patcher.Patcher[T], or patchers.StatusPatcher from patchers.For) by hand", fd.Name.Name)
	case why == "":
		why = h.testsMayCall(fd.Name.Name, opts)
	}
	if why == "" && h.iface {
		why = h.bodyWhy(opts)
	}
	if why == "" && h.method != nil {
		why = h.method.why()
	}
	switch {
	case why == "":
		return h, ""
	case opts.Audit:
		return nil, "" // an audit names no shape -fix does not move
	case h.method != nil:
		return nil, h.method.advice(why)
	case !h.anyPatched:
		return nil, "" // nor a helper no caller of which has a generated patcher
	}
	return nil, why
}

// anyKind reports whether t is a type parameter constrained by
// client.Object, or client.Object: a helper over objects of any kind.
func (h *kindHelper) anyKind(t types.Type) bool {
	pkg := importedPkg(h.pass.Pkg, kube.ClientPkgPath)
	if pkg == nil {
		return false
	}
	tn, ok := pkg.Scope().Lookup("Object").(*types.TypeName)
	if !ok {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		h.tparam = tp.Obj().Name()
		return types.Implements(tp, tn.Type().Underlying().(*types.Interface))
	}
	if types.Identical(t, tn.Type()) {
		h.newT = true
		return true
	}
	// An interface of the module that has client.Object's methods (a
	// conditions helper's Conditioned): T is constrained by it, so the
	// body's calls of its methods compile on the patcher's Object().
	if n, ok := types.Unalias(t).(*types.Named); ok && types.IsInterface(n) && h.ofModule(n.Obj().Pkg()) && types.Implements(n, tn.Type().Underlying().(*types.Interface)) {
		h.newT, h.iface = true, true
		return true
	}
	return false
}

// paramIndex is the index of the helper's parameter e names, or -1.
func (h *kindHelper) paramIndex(e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	v, ok := h.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return -1
	}
	return slices.Index(h.params, v)
}

// findCallers finds the helper's calls, each with the patcher it makes.
func (h *kindHelper) findCallers(files Files, opts Options) string {
	root := h.insp.Root()
	first := "" // the first caller's why; every caller is looked at (anyPatched)
	for c := range root.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if h.pass.TypesInfo.Uses[id] != h.fn {
			continue
		}
		line := h.pass.Fset.Position(id.Pos()).Line
		call, _ := callOf(c)
		if call == nil || call.Ellipsis.IsValid() || len(call.Args) != len(h.params) {
			first = cmp.Or(first, fmt.Sprintf("%s is used at line %d other than called", h.fd.Name.Name, line))
			continue
		}
		cc := c.Parent()
		if _, ok := cc.Node().(*ast.SelectorExpr); ok {
			cc = cc.Parent() // a method's call: recv.name(...)
		}
		kc, why := h.caller(cc, call)
		if why != "" {
			first = cmp.Or(first, fmt.Sprintf("its caller at %s %s", h.where(call.Pos()), why))
			continue
		}
		h.callers = append(h.callers, kc)
	}
	if first == "" && len(h.callers) == 0 {
		return fmt.Sprintf("%s has no caller in its package", h.fd.Name.Name)
	}
	return first
}
