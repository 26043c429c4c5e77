package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// controllerutil.CreateOrPatch(ctx, c, obj, mutate) (controller-runtime
// v0.22 to v0.25, the same code) Gets obj through c; on NotFound it runs
// mutate and Creates obj, which writes no status (the server drops it on
// create for a kind with the status subresource) and returns Created;
// else it runs mutate, patches what changed outside the status (a merge
// patch) and, when the status changed, sends c.Status().Patch(ctx, obj,
// client.MergeFrom(before)): no resourceVersion when only the status
// changed, else the one the patch of the rest returned, which a status
// written between the Get and that patch does not conflict with; a blind
// status write either way (issue 80, project E). -fix moves the mutate's
// status statements out of it, after the call's statement:
//
//	op, err := controllerutil.CreateOrPatch(ctx, c, obj, func() error { <the rest>; return nil })
//	if err == nil && op != controllerutil.OperationResultCreated {
//		err = patchers.New<Kind>StatusPatcher(c, obj).Retry(ctx, func(obj *Kind) error {
//			<the status statements>
//			return nil
//		})
//	}
//
// The patcher is made over the object CreateOrPatch wrote, whose status
// is what the server stored; its Retry sends the decision with that
// resourceVersion and, on a 409, reads again and decides again, leaving
// obj what was stored, as the status patch's answer left it. A call with
// a side effect is made once (a sync.OnceValue, migrateonce.go); an
// effect that cannot be (a channel received from) keeps the call
// (effectWhy). A result op read after the call is set as CreateOrPatch
// set it: updatedStatus (updatedStatusOnly) when the Retry's last attempt
// changed the status. On create nothing runs, as CreateOrPatch wrote no
// status then; the status in memory is then the one obj held before the
// mutate (CreateOrPatch left the mutate's unsent values there). A result
// not kept (_, err := or _, err =) is named op: op, err := for the first,
// a var op declared before the second (op, err := would shadow an err of
// an outer scope).
//
// The mutate is a function literal, or a local declared with one whose
// only use is the call (mutateLit). It moves only when the Retry makes
// the same decision on fresh state:
// the status statements are statements of the mutate literal that change
// nothing but the status, no statement before them returns, none uses a
// local another statement declares, none reads a field of obj a later
// statement sets, and the other statements neither read the status nor
// hand obj to a function that may (controllerutil's helpers set its
// metadata: its finalizers, its owner references). A field is Spec,
// Status, or one of the metadata's (ObjectMeta.Labels; ObjectMeta for a
// method of it or the whole). An if that changes the status and more is split in two ifs
// of its condition, the status statements in the one moved (splitIf):
// the condition, evaluated by both, calls nothing (but len, cap,
// conversions and metadata readers: condEffect), reads no status and
// nothing after it sets what it reads.
// A function literal a statement runs through a local (f := func() {...};
// f(), apply(f)) is taken as part of the statement: migratecreateorpatchclosure.go.

// CreateOrPatchMove is a CreateOrPatch call whose mutate changes the
// status, as the linter found it.
type CreateOrPatchMove struct {
	Call    *ast.CallExpr
	Patcher Patcher // the kind's generated patcher
}

// mutateStmts is what the mutate's statements do to the object: the
// status statements in order, and what every statement reads and sets
// of the object outside the status (by the object's field: Spec,
// ObjectMeta).
type mutateStmts struct {
	cs     *site
	obj    *types.Var
	lit    *ast.FuncLit
	status []ast.Stmt                    // the moving statements of the mutate's body
	leaves []leaf                        // its statements, a split if's by its parts (split)
	lits   map[*types.Var][]*ast.FuncLit // local function variables' literals (funcLits)
}

// CreateOrPatch plans the move of mv's status statements onto the kind's
// patcher, or says why they stay, naming the line and the fact.
func CreateOrPatch(pass *analysis.Pass, files Files, mv CreateOrPatchMove) (*analysis.SuggestedFix, string) {
	cs := &site{place: place{calls: calls{pass: pass, insp: files.Inspector}, call: mv.Call}}
	cur, ok := cs.cursor(mv.Call)
	if !ok {
		return nil, "its call is not in the package's syntax"
	}
	cs.path = pathOf(cur)
	cs.file, _ = cs.path[len(cs.path)-1].(*ast.File)
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || cs.file == nil || len(as.Lhs) != 2 || len(as.Rhs) != 1 || blockStmtOf(cur) != as {
		return nil, fmt.Sprintf("the call at %s is not a statement of its own (op, err := controllerutil.CreateOrPatch(...)) for the Retry to follow", cs.where(mv.Call.Pos()))
	}
	if id, ok := as.Lhs[1].(*ast.Ident); !ok || id.Name == "_" {
		return nil, fmt.Sprintf("the call's error at %s is not a variable the Retry's can join", cs.where(as.Pos()))
	}
	if _, ok := as.Lhs[0].(*ast.Ident); !ok {
		return nil, fmt.Sprintf("the call's operation result at %s is not a variable to tell a create by", cs.where(as.Pos()))
	}
	obj := identOf(pass, mv.Call.Args[2])
	lit, why := cs.mutateLit(mv.Call.Args[3])
	switch {
	case obj == nil || !isPointer(obj.Type()):
		return nil, fmt.Sprintf("the object %s is not a pointer variable the Retry can be given", cs.text().source(mv.Call.Args[2]))
	case lit == nil:
		return nil, why
	case !plainArg(mv.Call.Args[0]) || !plainArg(mv.Call.Args[1]):
		return nil, "the call's context or client is not a variable or a field the Retry can be given again"
	}
	ms := &mutateStmts{cs: cs, obj: obj, lit: lit}
	if why := ms.split(); why != "" {
		return nil, why
	}
	if why := ms.ownPatcher(mv.Patcher); why != "" {
		return nil, why
	}
	var nodes []ast.Node
	for _, l := range ms.leaves {
		if l.status {
			nodes = append(nodes, l.node)
		}
	}
	r := retries{migration: &migration{site: *cs}}
	if why := effectWhy(r, nodes); why != "" {
		return nil, why
	}
	s := &onceSpan{si: cs, where: cs.where, fn: cs.enclosingFunc(), from: lit.Pos(), to: lit.End(), held: []*types.Var{obj}, stmt: as}
	onces, why := s.calls(nodes)
	if why != "" {
		return nil, why
	}
	if why := calleeEffects(s, r, ms.leaves); why != "" {
		return nil, why
	}
	return ms.fix(as, mv.Patcher, onces)
}

// mutateLit is the function literal the mutate e is: e itself, or the
// one a local declares (mutate := func() error {...}) when the call is
// its only use, so that its statements are the call's alone; else why
// not.
func (cs *site) mutateLit(e ast.Expr) (*ast.FuncLit, string) {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.FuncLit); ok {
		return lit, ""
	}
	notLit := fmt.Sprintf("the mutate %s is not a function literal whose statements -fix can move", cs.text().source(e))
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, notLit
	}
	v, ok := cs.pass.TypesInfo.Uses[id].(*types.Var)
	fn, found := cs.cursor(cs.enclosingFunc())
	if !ok || !found || v.Pos() < fn.Node().Pos() || v.Pos() >= fn.Node().End() {
		return nil, notLit
	}
	var lit *ast.FuncLit
	for c := range fn.Preorder((*ast.Ident)(nil)) {
		x := c.Node().(*ast.Ident)
		switch {
		case x == id:
		case cs.pass.TypesInfo.Uses[x] == v:
			return nil, fmt.Sprintf("%s uses %s besides the call: its literal's statements are not the call's alone", cs.where(x.Pos()), v.Name())
		case cs.pass.TypesInfo.Defs[x] == v:
			lit = declaredLit(c)
		}
	}
	if lit == nil {
		return nil, fmt.Sprintf("%s, declared at %s, is not given a function literal there", v.Name(), cs.where(v.Pos()))
	}
	return lit, ""
}

// declaredLit is the function literal the identifier defined at c is
// given in its declaration (x := func...{}, var x = func...{}).
func declaredLit(c inspector.Cursor) *ast.FuncLit {
	var lhs []*ast.Ident
	var rhs []ast.Expr
	switch d := c.Parent().Node().(type) {
	case *ast.AssignStmt:
		for _, l := range d.Lhs {
			id, _ := l.(*ast.Ident)
			lhs = append(lhs, id)
		}
		rhs = d.Rhs
	case *ast.ValueSpec:
		lhs, rhs = d.Names, d.Values
	}
	if len(lhs) != len(rhs) {
		return nil
	}
	for i, l := range lhs {
		if l == c.Node() {
			lit, _ := ast.Unparen(rhs[i]).(*ast.FuncLit)
			return lit
		}
	}
	return nil
}

// plainArg reports whether e is a variable or a chain of its fields:
// evaluated again after the call, it is the same value.
func plainArg(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plainArg(x.X)
	}
	return false
}

// A use of the object in a statement: the field of the object it goes
// through (Status, Spec, ObjectMeta; "" for the object itself), whether
// it may change it, and the function it is handed to.
type objUse struct {
	field  string
	sets   bool
	handed string // the function given the object itself, "" for none
}

// uses is every use of the object in s.
func (ms *mutateStmts) uses(s ast.Node) []objUse {
	info := ms.cs.pass.TypesInfo
	sc, ok := ms.cs.cursor(s)
	if !ok {
		return []objUse{{handed: "code out of sight"}}
	}
	var out []objUse
	for c := range sc.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != ms.obj {
			continue
		}
		sel, isSel := c.Parent().Node().(*ast.SelectorExpr)
		if !isSel || sel.X != c.Node() || info.Selections[sel] == nil {
			u := objUse{handed: ms.handedTo(c)}
			if u.handed == "" {
				// controllerutil's helpers set the metadata.
				u.field, u.sets = helperSets(c.Parent().Node())
			}
			out = append(out, u)
			continue
		}
		selection := info.Selections[sel]
		method := selection.Kind() == types.MethodVal
		st, ok := derefStruct(ms.obj.Type())
		if !ok || method && len(selection.Index()) == 1 {
			// A method of the kind itself: its body is not followed.
			out = append(out, objUse{handed: "the method " + sel.Sel.Name})
			continue
		}
		u := objUse{field: st.Field(selection.Index()[0]).Name()}
		if u.field == "ObjectMeta" && !method {
			u.field = metaField(sel, selection)
		}
		if method {
			// A method of an embedded field (ObjectMeta's): a getter
			// reads, any other may set what it reaches.
			u.sets = !strings.HasPrefix(sel.Sel.Name, "Get") && !strings.HasPrefix(sel.Sel.Name, "DeepCopy")
		} else {
			// A map, slice or pointer of it handed on may be set there
			// (delete(w.Labels, k), f(w.Spec.Roles)): mayWrite.
			top := chainTop(c, ms.fieldSel)
			u.sets = setAt(top) || ms.mayWrite(top, c)
		}
		out = append(out, u)
	}
	return out
}

// metaField is the field of the metadata sel reaches (ObjectMeta.Labels
// for w.Labels or w.ObjectMeta.Labels), ObjectMeta for all of it.
func metaField(sel *ast.SelectorExpr, selection *types.Selection) string {
	if len(selection.Index()) > 1 {
		return "ObjectMeta." + sel.Sel.Name
	}
	return "ObjectMeta"
}

// helperSets is the field of the metadata the controllerutil helper
// called at n uses: a finalizer's, an owner reference's, else all of it;
// and whether it may set it (ContainsFinalizer, HasOwnerReference read).
func helperSets(n ast.Node) (string, bool) {
	name := ""
	if call, ok := n.(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			name = sel.Sel.Name
		}
	}
	sets := !strings.HasPrefix(name, "Contains") && !strings.HasPrefix(name, "Has")
	switch {
	case strings.Contains(name, "Finalizer"):
		return "ObjectMeta.Finalizers", sets
	case strings.Contains(name, "OwnerReference") || strings.Contains(name, "ControllerReference"):
		return "ObjectMeta.OwnerReferences", sets
	}
	return "ObjectMeta", true
}

// overlap reports whether fields a and b (Spec, ObjectMeta.Labels) share
// memory: the same, or one within the other.
func overlap(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

// setAt reports whether the expression at c is assigned, incremented or
// has its address taken.
func setAt(c inspector.Cursor) bool {
	switch p := c.Parent().Node().(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == c.Node() {
				return true
			}
		}
	case *ast.IncDecStmt:
		return true
	case *ast.UnaryExpr:
		return p.Op == token.AND
	}
	return false
}

// derefStruct is the struct a pointer to a named struct points to.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// handedTo names the function the object itself is given to at c; ""
// for controllerutil's helpers and ctrl's aliases of them, which set
// only the metadata (SetControllerReference, AddFinalizer).
func (ms *mutateStmts) handedTo(c inspector.Cursor) string {
	call, ok := c.Parent().Node().(*ast.CallExpr)
	if !ok {
		return "an expression at " + ms.cs.where(c.Node().Pos())
	}
	if f := calleeFunc(ms.cs.pass.TypesInfo, call); f != nil && f.Pkg() != nil {
		p := f.Pkg().Path()
		if p == "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil" && !strings.HasPrefix(f.Name(), "CreateOr") {
			return ""
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if pn, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			if pkg, ok := ms.cs.pass.TypesInfo.Uses[pn].(*types.PkgName); ok && pkg.Imported().Path() == "sigs.k8s.io/controller-runtime" && strings.HasPrefix(sel.Sel.Name, "Set") {
				return ""
			}
		}
	}
	return types.ExprString(call.Fun)
}

// calleeFunc is the function a call calls, nil for a function value.
func calleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}
