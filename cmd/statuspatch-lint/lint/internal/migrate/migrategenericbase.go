package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// An ownBase is a helper over any kind that takes its base itself and
// hands the object on before its write (a Patch of a base parameter is
// a kindHelper's):
//
//	func patchStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
//		base := obj.DeepCopyObject().(T)
//		mutate(obj)
//		return c.Status().Patch(ctx, obj, client.MergeFrom(base))
//	}
//
// Its signature and its callers stay: the base becomes the generic
// patcher of obj's kind, objPatcher, err := patchers.ForType(c, obj)
// (with patcher.WithNonStatusChangesUnsent() when obj is used between:
// the status subresource stored only the status), and the write its
// Flush (an obj of type client.Object: patchers.For, whose StatusPatcher
// has Flush too). Every call in the package passes a kind whose generated patcher
// is in one package with the dispatcher (statuspatch-gen's output:dir);
// the helper is unexported, only called and returns only an error.
type ownBase struct {
	*site
	fd     *ast.FuncDecl
	obj    *types.Var
	def    ast.Stmt // base := obj.DeepCopyObject().(T)
	client ast.Expr
	pkg    string     // the callers' kinds' patchers' package
	used   bool       // obj is used between the base and the write
	ctor   string     // ForType, or For for an obj of type client.Object
	mutate ast.Stmt   // mutate(obj), made the patcher's Retry: a caller decides from the status (migrategenericretry.go)
	read   bool       // def is the Get of an Update's object: the patcher is made after it (migrategenericupdate.go)
	defers bool       // the write is in a deferred literal: it runs after every statement past def
	once   []onceCall // the callers' literals' calls made once before their calls (migrateonce.go)
	zeros  []string   // a method's results before its error, returned with ForType's (migrategenerictype.go)
}

// recogniseOwnBase recognises a write of an ownBase.
func recogniseOwnBase(r *recognition) (*ownBase, string, bool) {
	call, ok := r.files.Calls[r.w.Lparen]
	if !ok || r.w.Generated || r.opts.PatcherOf == nil || len(call.Args) != map[string]int{"Patch": 3, "Update": 2}[r.w.Verb] {
		return nil, "", false
	}
	k := &kindHelper{site: &site{place: place{calls: calls{pass: r.pass, insp: r.files.Inspector}, call: call}}}
	cur, ok := k.cursor(call)
	if !ok {
		return nil, "", false
	}
	k.path = pathOf(cur)
	k.file = k.path[len(k.path)-1].(*ast.File)
	o := &ownBase{site: k.site}
	o.fd, _ = o.enclosingFunc().(*ast.FuncDecl)
	id, _ := ast.Unparen(call.Args[1]).(*ast.Ident)
	o.obj, _ = r.pass.TypesInfo.Uses[id].(*types.Var)
	if r.w.Verb == "Update" {
		return o.recogniseUpdate(r, k, call) // migrategenericupdate.go
	}
	mf, _ := ast.Unparen(call.Args[2]).(*ast.CallExpr)
	if o.fd == nil || o.obj == nil || !k.anyKind(o.obj.Type()) || mf == nil || !o.isMergeFrom(mf) {
		return nil, "", false
	}
	if o.fd.Recv != nil && o.recvTypeParam() == nil || o.fd.Recv == nil && o.paramOf(o.obj) != o.fd.Name.Name {
		return nil, "", false // a method's: of its generic type's parameter (migrategenerictype.go)
	}
	bid, _ := ast.Unparen(mf.Args[0]).(*ast.Ident)
	b, _ := r.pass.TypesInfo.Uses[bid].(*types.Var)
	def, val := o.definition(b)
	ta, _ := ast.Unparen(val).(*ast.TypeAssertExpr)
	if def == nil || ta == nil || o.uses(b) != 1 {
		return nil, "", false
	}
	dc, _ := ast.Unparen(ta.X).(*ast.CallExpr)
	if dc == nil || len(dc.Args) != 0 {
		return nil, "", false
	}
	if sel, ok := ast.Unparen(dc.Fun).(*ast.SelectorExpr); !ok || sel.Sel.Name != "DeepCopyObject" || !o.isObjOf(sel.X) {
		return nil, "", false
	}
	o.def, o.ctor = def, "ForType"
	if k.newT {
		o.ctor = "For" // obj client.Object: For's StatusPatcher
	}
	if why := o.check(r.opts, call); why != "" {
		// An audit names no shape -fix does not move (as kindHelperOf).
		return nil, why, !r.opts.Audit
	}
	return o, "", true
}

func (o *ownBase) isObjOf(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && o.pass.TypesInfo.Uses[id] == o.obj
}

// check says why the helper stays, naming the caller or the use; on
// success it returns "" with o complete.
func (o *ownBase) check(opts Options, call *ast.CallExpr) string {
	name := o.fd.Name.Name
	res := o.fd.Type.Results
	if o.fd.Recv != nil {
		res = nil // the method's results: checkType's
	} else if res == nil || res.NumFields() != 1 || !types.Identical(o.pass.TypesInfo.TypeOf(res.List[0].Type), types.Universe.Lookup("error").Type()) {
		return name + " returns more than an error: the error of patchers." + o.ctor + " has no result of its own to go with"
	}
	o.client, _ = statusReceiver(call)
	if !isPlainSelector(o.client) || !o.isClient(o.client) || o.declaredBefore(o.client, o.def.Pos()) != "" {
		return "its client " + types.ExprString(o.client) + " is not a client.Client named before its base, to make the patcher with"
	}
	for cur := range o.usesOf(o.fd.Body, o.obj, o.fd.Body.Pos(), o.fd.Body.End()) {
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, cur.Node().(ast.Expr)) {
			return fmt.Sprintf("%s is assigned at line %d", o.obj.Name(), o.pass.Fset.Position(as.Pos()).Line)
		}
		if p := cur.Node().Pos(); p > o.def.End() && p < o.writeEnd(call) && (p < call.Pos() || p >= call.End()) {
			o.used = true
		}
	}
	if o.used && !opts.NonStatusUnsent {
		return fmt.Sprintf("%s is used between its base and the write: what it changes beside the status the patcher would not write", o.obj.Name())
	}
	if o.fd.Recv != nil {
		return o.checkType(opts, call)
	}
	fn, _ := o.pass.TypesInfo.Defs[o.fd.Name].(*types.Func)
	if fn == nil || fn.Exported() {
		return name + " is exported, and its callers in other packages are not seen: make its base patchers." + o.ctor + "(c, obj) and its write Flush by hand"
	}
	if why := o.testsMayCall(name, opts); why != "" {
		return why
	}
	i := slices.Index(paramVars(o.pass, o.fd), o.obj)
	for _, f := range o.pass.Files {
		for cur := range o.usesOf(f, fn, f.FileStart, f.FileEnd) {
			line := o.pass.Fset.Position(cur.Node().Pos()).Line
			c, _ := callOf(cur)
			if c == nil && isExplicitInstance(cur) { // name[T](...)
				c, _ = callOf(cur.Parent())
			}
			if c == nil || c.Ellipsis.IsValid() || i >= len(c.Args) {
				return fmt.Sprintf("%s is used at line %d other than called", name, line)
			}
			t := o.pass.TypesInfo.TypeOf(c.Args[i])
			if tp, ok := o.obj.Type().(*types.TypeParam); ok {
				// The patcher is ForType's of T as the call instantiates
				// it, not of the argument's type.
				if inst, ok := o.pass.TypesInfo.Instances[cur.Node().(*ast.Ident)]; ok && tp.Index() < inst.TypeArgs.Len() {
					t = inst.TypeArgs.At(tp.Index())
				}
			}
			kind := types.TypeString(t, types.RelativeTo(o.pass.Pkg))
			if n := kube.NamedOf(t); n != nil {
				kind = n.Obj().Name()
			}
			p := opts.PatcherOf(t)
			switch {
			case types.IsInterface(t):
				what := "which kind it holds, and so whether patchers.For has its patcher, is not seen"
				if o.ctor == "ForType" {
					what = "ForType's patcher would be a Patcher of that interface, which no generated patcher is"
				}
				return fmt.Sprintf("its caller at %s passes %s as %s, an interface: %s", o.where(c.Pos()), types.ExprString(c.Args[i]), types.TypeString(t, func(p *types.Package) string { return p.Name() }), what)
			case p == nil:
				return fmt.Sprintf("its caller at %s passes %s, a %s, whose kind has no generated patcher", o.where(c.Pos()), types.ExprString(c.Args[i]), kind)
			case o.pkg != "" && p.Pkg != o.pkg:
				return fmt.Sprintf("its caller at %s passes %s, a %s, whose patcher is in %s, not %s with the other callers' kinds': one ForType makes the patchers of its package's kinds", o.where(c.Pos()), types.ExprString(c.Args[i]), kind, p.Pkg, o.pkg)
			case !dispatches(o.pass, p.Pkg, kube.NamedOf(t)):
				return fmt.Sprintf("its caller at %s passes %s, a %s, whose patcher's package %s has no ForType (generated beside the API types, not with output:dir)", o.where(c.Pos()), types.ExprString(c.Args[i]), kind, p.Pkg)
			}
			o.pkg = p.Pkg
		}
	}
	if o.pkg == "" {
		return name + " has no caller in its package"
	}
	if st, mutate := o.ownRetry(call); st != nil {
		decides, why := o.callersDecide(mutate)
		switch {
		case why != "":
			return why
		case decides && o.ctor != "ForType":
			return "a caller's function literal decides from the status, and patchers.For's StatusPatcher has no Retry to decide again on a conflict: make the patcher with patchers.ForType by hand"
		case decides:
			o.mutate = st
		}
	}
	return ""
}

// isExplicitInstance reports whether cur, a use of a generic function,
// is instantiated explicitly: name[T] or name[T1, T2].
func isExplicitInstance(cur inspector.Cursor) bool {
	switch p := cur.Parent().Node().(type) {
	case *ast.IndexExpr:
		return p.X == cur.Node()
	case *ast.IndexListExpr:
		return p.X == cur.Node()
	}
	return false
}

// dispatches reports whether the generated package pkg declares ForType:
// by its scope when the package is imported, else by where it is
// (statuspatch-gen writes the dispatcher in an output:dir package, not
// beside the API types).
func dispatches(pass *analysis.Pass, pkg string, kind *types.Named) bool {
	if p := importedPkg(pass.Pkg, pkg); p != nil {
		return p.Scope().Lookup("ForType") != nil
	}
	return kind != nil && kind.Obj().Pkg() != nil && kind.Obj().Pkg().Path() != pkg
}

// fix makes the base the generic patcher and the write its Flush.
func (o *ownBase) fix(p Patcher, _ Files, _ []*Write, opts Options) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := o.text().qualifier(o.pkg)
	if why != "" {
		return nil, why
	}
	// err, unless the base's block declares it after the base (its :=
	// would then declare nothing new) or as another type.
	errName := "err"
	if sc := o.blockScope(o.def); sc != nil {
		if v, ok := sc.Lookup("err").(*types.Var); ok && (v.Pos() > o.def.Pos() || !types.Identical(v.Type(), types.Universe.Lookup("error").Type())) {
			errName = o.obj.Name() + "Err"
			for i := 2; o.text().nameTaken(errName); i++ {
				errName = fmt.Sprintf("%sErr%d", o.obj.Name(), i)
			}
		}
	}
	name := o.obj.Name() + "Patcher"
	for i := 2; o.text().nameTaken(name); i++ {
		name = fmt.Sprintf("%sPatcher%d", o.obj.Name(), i)
	}
	var popts string
	var pimport *analysis.TextEdit
	if o.used {
		pq := ""
		if pq, pimport, why = o.text().qualifier(kube.PatcherPkgPath); why != "" {
			return nil, why
		}
		popts = ", " + pq + "WithNonStatusChangesUnsent()"
	}
	in := o.text().indent(o.def.Pos())
	made := fmt.Sprintf("%s, %s := %s%s(%s, %s%s)\n%sif %s != nil {\n%s\treturn %s\n%s}", name, errName, qual, o.ctor, o.text().source(o.client), o.obj.Name(), popts, in, errName, in, strings.Join(append(slices.Clip(o.zeros), errName), ", "), in)
	write := name + ".Flush(" + o.text().source(o.call.Args[0]) + ")"
	how := o.ctor
	var dropMutate []analysis.TextEdit
	if o.mutate != nil {
		write = fmt.Sprintf("%s.Retry(%s, func(%s %s) error {\n%s\t%s\n%s\treturn nil\n%s})", name, o.text().source(o.call.Args[0]), o.obj.Name(), o.paramType(), in, o.text().source(o.mutate.(*ast.ExprStmt).X), in, in)
		dropMutate = append(dropMutate, o.text().deleteStmt(o.mutate))
		how += ", the call of its function in Retry"
	}
	defEdit := analysis.TextEdit{Pos: o.def.Pos(), End: o.def.End(), NewText: []byte(made)}
	if o.read {
		defEdit = analysis.TextEdit{Pos: o.def.End(), End: o.def.End(), NewText: []byte("\n" + in + made)}
	}
	edits := []analysis.TextEdit{
		defEdit,
		{Pos: o.call.Pos(), End: o.call.End(), NewText: []byte(write)},
	}
	edits = append(edits, dropMutate...)
	edits = append(edits, importEdits(o.pkg, importEdit, kube.PatcherPkgPath, pimport)...)
	if o.mutate != nil && len(o.once) > 0 {
		if edits, why = litOnceEdits(o, o.once, edits); why != "" {
			return nil, why
		}
		how += ", its callers' " + types.ExprString(o.once[0].call.Fun) + " made once"
	}
	if o.used {
		how += " with WithNonStatusChangesUnsent"
	}
	if o.fd.Recv != nil {
		return &analysis.SuggestedFix{Message: o.typeMessage(how), TextEdits: edits}, ""
	}
	return &analysis.SuggestedFix{Message: fmt.Sprintf("move the status write onto the generated patchers (%s makes its object's patcher with %s.%s in place of its base, then Flush)", o.fd.Name.Name, o.pkg[strings.LastIndex(o.pkg, "/")+1:], how), TextEdits: edits}, ""
}

// paramType is the source of obj's parameter type (T).
func (o *ownBase) paramType() string {
	for _, f := range o.fd.Type.Params.List {
		for _, n := range f.Names {
			if o.pass.TypesInfo.Defs[n] == o.obj {
				return o.text().source(f.Type)
			}
		}
	}
	return types.TypeString(o.obj.Type(), types.RelativeTo(o.pass.Pkg))
}
