package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// A server-side apply of the status from an apply configuration,
//
//	app := appsv1apply.Application(req.Name, req.Namespace).WithStatus(...)
//	err := r.Status().Apply(ctx, app, client.FieldOwner("o"), client.ForceOwnership)
//
// (or r.SubResource("status").Apply), moves onto the patcher's apply mode:
// the patcher is made after the Get of the object the configuration names
// (as the lock fix finds it: kube.FetchedObjects), with
// patcher.WithWriteMode(patcher.WriteApply) and patcher.WithFieldOwner("o");
// the configuration's status goes to its ApplyStatus just before the write
// (whose error the next Flush returns too), and the write becomes the
// Flush. The object must only be read between the Get and the write: apply
// mode sends what ApplyStatus was given and refuses in-memory changes
// beside it.

// applyMove is the move of an apply: the configuration and field owner
// it keeps beside the migration it embeds, and the fix it builds.
type applyMove struct {
	*migration
	ac    ast.Expr   // the configuration the write applies
	owner fieldOwner // the field owner
	addr  bool       // the object is a value: the patcher takes its address
	// status is what ApplyStatus is given: the configuration's Status
	// when "", u.Object["status"] for an unstructured object
	// (migrateapplyunstructured.go).
	status string
	// late: the object's status is also written by merge writes before
	// the apply's statement (applyBeside): the patcher is made right
	// before it, after them.
	late bool
	// marshal: the bytes an apply patch of its own type holds are the
	// marshal of the configuration, which goes with the move
	// (migrateapplybytes.go).
	marshal *marshalled
}

// statusText is what ApplyStatus is given.
func (a *applyMove) statusText() string {
	if a.status != "" {
		return a.status
	}
	return types.ExprString(a.ac) + ".Status"
}

// prepareApply recognises an apply of a configuration and sets m.obj,
// m.anchor and m.apply, or returns why it cannot move.
func (m *migration) prepareApply(kind string) string {
	owner, why := optionsOf(&m.place, 2).apply()
	if why != "" {
		return m.shapeWhy(why)
	}
	ac := ast.Unparen(m.call.Args[1])
	acKind, ok := kube.ApplyConfigKind(m.pass.TypesInfo.TypeOf(ac))
	if !ok || acKind != kind {
		return m.shapeWhy("the applied " + types.ExprString(ac) + " is not a " + kind + "ApplyConfiguration")
	}
	if f, _, _ := types.LookupFieldOrMethod(m.pass.TypesInfo.TypeOf(ac), true, m.pass.Pkg, "Status"); !isField(f) {
		return m.shapeWhy(kind + "ApplyConfiguration has no Status field to give to ApplyStatus")
	}
	root := m.configRoot(ac)
	if root == nil {
		return m.shapeWhy("the apply configuration " + types.ExprString(ac) + " is not built in this function by a constructor call (" + kind + "(name, namespace)...)")
	}
	named := kube.NamedBy(m.pass, root, kube.FetchedObjects(m.pass, root, kind))
	var name ast.Expr
	if len(root.Args) > 0 {
		name = root.Args[0]
	}
	return m.applyFrom(named, name, kind, "the apply configuration", ac, owner)
}

// applyFrom makes the apply's move from the one object of named, the
// objects of kind fetched under the name the applied value (built: how
// the finding calls it) gives: the patcher is made after its Get, in apply
// mode, and ac's Status goes to ApplyStatus. With none, a helper's
// parameter that name is of is followed to its callers' Gets
// (migrateapplyhelper.go). It returns why it cannot.
func (m *migration) applyFrom(named []kube.Fetched, name ast.Expr, kind, built string, ac ast.Expr, owner fieldOwner) string {
	switch len(named) {
	case 0:
		if applyHelper(m, name, kind, ac, owner) {
			return ""
		}
		return m.shapeWhy("no " + kind + " fetched with Get before " + built + " is built, under the name it gives: the patcher is made from that object")
	case 1:
	default:
		return m.shapeWhy("several " + kind + " objects fetched with Get (" + kube.FetchedNames(named) + "): which one the status was computed from is not clear")
	}
	obj, ok := named[0].Obj.(*types.Var)
	if !ok {
		return m.shapeWhy("the fetched " + named[0].Name + " is not a variable")
	}
	m.obj = obj
	_, isPtr := types.Unalias(obj.Type()).(*types.Pointer)
	m.apply = &applyMove{migration: m, ac: ac, owner: owner, addr: !isPtr}
	if why := m.reads().findGet(); m.anchor == nil {
		return why
	}
	if m.get == nil {
		return m.shapeWhy(obj.Name() + " is a copy of a read: the patcher is made from the object the Get reads")
	}
	if why := m.declaredBefore(owner.expr, m.anchor.End()); why != "" {
		return m.shapeWhy(why)
	}
	return ""
}

func isField(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && v.IsField()
}

// checkApplyUses returns why the code between the Get and the apply may
// change the object: apply mode's Flush sends what ApplyStatus was given
// and refuses any change in memory beside it. Reads, getters and DeepCopy
// are fine. Before the Get, as in merge mode (checkBefore), no alias of
// the object or reference into it, its status included, may be kept, nor
// a function literal that changes it declared.
func (a *applyMove) checkApplyUses() string {
	if why := a.checks().checkBefore(a.applyUses, false); why != "" {
		return why
	}
	from := a.anchor.End()
	if a.late {
		from = a.enclosingStmt().Pos()
	}
	return a.reachingUses(a.enclosingFunc(), from, a.call.Pos())
}

// applyUses returns why a use of the object in root between from and to
// may change it, its status included.
func (a *applyMove) applyUses(root ast.Node, from, to token.Pos) string {
	return a.eachUse(root, a.obj, from, to, func(stack []ast.Node, _ *ast.Ident) string {
		if why := a.refs().useProblem(stack, a.obj); why != "" {
			return why
		}
		return a.statusChange(stack)
	})
}

// applyEdits builds the fix of a moved apply: the patcher made after the
// Get in apply mode, the configuration's status given to ApplyStatus
// before the statement holding the write, the write made its Flush, and
// the packages imported.
func (a *applyMove) applyEdits(p Patcher) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := a.text().qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	pqual, pimportEdit, why := a.text().qualifier(kube.PatcherPkgPath)
	if why != "" {
		return nil, why
	}
	stmt := a.enclosingStmt()
	if stmt == nil {
		return nil, a.shapeWhy("the apply is not in a statement of a block")
	}
	name := a.freePatcherName()
	if a.late {
		// Beside the merge writes' patcher, under a name of its own.
		name = a.obj.Name() + "ApplyPatcher"
		for i := 2; a.text().nameTaken(name); i++ {
			name = fmt.Sprintf("%sApplyPatcher%d", a.obj.Name(), i)
		}
	}
	objText := a.obj.Name()
	if a.addr {
		objText = "&" + objText
	}
	ctor := fmt.Sprintf("%s := %sNew%s(%s, %s, %sWithWriteMode(%sWriteApply), %sWithFieldOwner(%s))",
		name, qual, p.Type, a.clientText, objText, pqual, pqual, pqual, a.owner.text())
	give := fmt.Sprintf("_ = %s.Patcher().ApplyStatus(%s) // Flush returns its error too\n%s",
		name, a.statusText(), a.text().indent(stmt.Pos()))
	edits := []analysis.TextEdit{
		{Pos: a.anchor.End(), End: a.anchor.End(), NewText: []byte("\n" + a.text().indent(a.anchor.Pos()) + ctor)},
		{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(give)},
		{Pos: a.call.Pos(), End: a.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(a.call.Args[0])))},
	}
	how := " in apply mode (New" + p.Type + " with the field owner, ApplyStatus, then Flush)"
	var onceImport *analysis.TextEdit // sync, for the decision's calls made once
	if a.retry != nil {
		re, call, syncImport, ok, why := retryEdits(retries{migration: a.migration}, name)
		switch {
		case why != "":
			return nil, why
		case !ok:
			return nil, a.shapeWhy("its decision from the status cannot be written as Retry's function here" + applyRetryAdvice)
		}
		edits = append(append(edits[:1], re...), analysis.TextEdit{Pos: a.call.Pos(), End: a.call.End(), NewText: []byte(call)})
		onceImport = syncImport
		how = " in apply mode (New" + p.Type + " with the field owner, the decision and ApplyStatus in Retry)"
	}
	if a.late {
		made := analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(ctor + "\n" + a.text().indent(stmt.Pos()) + give)}
		edits = []analysis.TextEdit{made, edits[2]}
		how = " in apply mode (New" + p.Type + " with the field owner made after the merge writes of " + a.obj.Name() + ", ApplyStatus, then Flush)"
	}
	edits = mergeImport(append(edits, importEdits(p.Pkg, importEdit, kube.PatcherPkgPath, pimportEdit)...), onceImport)
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + how, TextEdits: edits}, ""
}

// importEdits returns the import edits of two packages (either nil when
// imported already); two at one place are one edit, in sorted order.
func importEdits(path1 string, e1 *analysis.TextEdit, path2 string, e2 *analysis.TextEdit) []analysis.TextEdit {
	if e1 != nil && e2 != nil && e1.Pos == e2.Pos {
		if path2 < path1 {
			e1, e2 = e2, e1
		}
		return []analysis.TextEdit{{Pos: e1.Pos, End: e1.End, NewText: append(append([]byte{}, e1.NewText...), e2.NewText...)}}
	}
	var out []analysis.TextEdit
	for _, e := range []*analysis.TextEdit{e1, e2} {
		if e != nil {
			out = append(out, *e)
		}
	}
	return out
}
