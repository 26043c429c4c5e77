package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// A server-side apply of the status from an apply configuration,
//
//	app := appsv1apply.Application(req.Name, req.Namespace).WithStatus(...)
//	err := r.Status().Apply(ctx, app, client.FieldOwner("o"), client.ForceOwnership)
//
// (or r.SubResource("status").Apply), moves onto the patcher's apply mode:
// the patcher is made after the Get of the object the configuration names
// (as the lock fix finds it, applyfix.go), with
// patcher.WithWriteMode(patcher.WriteApply) and patcher.WithFieldOwner("o");
// the configuration's status goes to its ApplyStatus just before the write
// (whose error the next Flush returns too), and the write becomes the
// Flush. The object must only be read between the Get and the write: apply
// mode sends what ApplyStatus was given and refuses in-memory changes
// beside it.

// applyMove is what the move of an apply keeps beside the migration.
type applyMove struct {
	ac    ast.Expr // the configuration the write applies
	owner ast.Expr // the field owner: client.FieldOwner's argument, or a value of that type
	typed bool     // owner is a client.FieldOwner (a constant or variable), passed as string(owner)
	addr  bool     // the object is a value: the patcher takes its address
}

// prepareApply recognises an apply of a configuration and sets m.obj,
// m.anchor and m.apply, or returns why it cannot move.
func (m *migration) prepareApply(kind string) string {
	owner, typed, why := m.applyOwner()
	if why != "" {
		return m.shapeWhy(why)
	}
	ac := ast.Unparen(m.call.Args[1])
	acKind, ok := applyConfigKind(m.pass.TypesInfo.TypeOf(ac))
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
	named := namedBy(m.pass, root, fetchedObjects(m.pass, root, kind))
	switch len(named) {
	case 0:
		return m.shapeWhy("no " + kind + " fetched with Get before the apply configuration is built, under the name it gives: the patcher is made from that object")
	case 1:
	default:
		return m.shapeWhy("several " + kind + " objects fetched with Get (" + fetchedNames(named) + "): which one the status was computed from is not clear")
	}
	obj, ok := named[0].obj.(*types.Var)
	if !ok {
		return m.shapeWhy("the fetched " + named[0].name + " is not a variable")
	}
	m.obj = obj
	_, isPtr := types.Unalias(obj.Type()).(*types.Pointer)
	m.apply = &applyMove{ac: ac, owner: owner, typed: typed, addr: !isPtr}
	if why := m.findGet(); m.anchor == nil {
		return why
	}
	if m.get == nil {
		return m.shapeWhy(obj.Name() + " is a copy of a read: the patcher is made from the object the Get reads")
	}
	if why := m.declaredBefore(owner, m.anchor.End()); why != "" {
		return m.shapeWhy(why)
	}
	return ""
}

// applyOwner returns the field owner of the apply's options (typed: a
// client.FieldOwner value, not a conversion's argument), or why they
// are not the ones apply mode takes: client.FieldOwner and
// client.ForceOwnership, which apply mode always sends.
func (m *migration) applyOwner() (owner ast.Expr, typed bool, why string) {
	if m.call.Ellipsis.IsValid() {
		return nil, false, "the apply's options are spread from a slice"
	}
	force := false
	for _, a := range m.call.Args[2:] {
		if c, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(c.Args) == 1 && m.isClientType(c.Fun, "FieldOwner") {
			owner, typed = c.Args[0], false
			continue
		}
		if n := namedOf(m.pass.TypesInfo.TypeOf(a)); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == clientPkgPath && n.Obj().Name() == "FieldOwner" {
			owner, typed = a, true // const fieldOwner client.FieldOwner = "..."
			continue
		}
		if m.isClientVar(a, "ForceOwnership") {
			force = true
			continue
		}
		return nil, false, "the apply has the option " + types.ExprString(a) + ": apply mode takes only client.FieldOwner and client.ForceOwnership"
	}
	switch {
	case owner == nil:
		return nil, false, "the apply names no client.FieldOwner: apply mode needs the field owner (patcher.WithFieldOwner); move it by hand"
	case !force:
		return nil, false, "the apply does not force ownership (client.ForceOwnership), and apply mode does: move it by hand if taking the fields from other managers is what you want"
	}
	return owner, typed, ""
}

// ownerText is the field owner as the string patcher.WithFieldOwner takes.
func (m *migration) ownerText() string {
	if m.apply.typed {
		return "string(" + types.ExprString(m.apply.owner) + ")"
	}
	return types.ExprString(m.apply.owner)
}

func isField(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && v.IsField()
}

// configRoot returns the constructor call a configuration's builder chain
// starts from: ac itself, or the value of ac's definition in a block
// enclosing the write.
func (m *migration) configRoot(ac ast.Expr) *ast.CallExpr {
	if id, ok := ac.(*ast.Ident); ok {
		v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
		_, val := m.definition(v)
		if val == nil {
			return nil
		}
		ac = val
	}
	for range maxDepth {
		call, ok := ast.Unparen(ac).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return call
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			if fn := calledFunc(m.pass, call); fn == nil || fn.Signature().Recv() != nil {
				return nil // a method of a variable: not built here
			}
			return call
		}
		ac = inner
	}
	return nil
}

// declaredBefore says why e cannot be evaluated at pos: it uses a local
// variable declared after it.
func (m *migration) declaredBefore(e ast.Expr, pos token.Pos) string {
	why := ""
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || why != "" {
			return why == ""
		}
		if v, ok := m.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != m.pass.Pkg.Scope() && v.Pos() >= pos {
			why = "the field owner " + types.ExprString(e) + " uses " + id.Name + ", declared after the read the patcher is made at"
		}
		return true
	})
	return why
}

// checkApplyUses returns why the code between the Get and the apply may
// change the object: apply mode's Flush sends what ApplyStatus was given
// and refuses any change in memory beside it. Reads, getters and DeepCopy
// are fine.
func (m *migration) checkApplyUses() string {
	return m.eachUse(m.enclosingFunc(), m.obj, m.anchor.End(), m.call.Pos(), func(stack []ast.Node, _ *ast.Ident) string {
		if why := m.useProblem(stack, m.obj); why != "" {
			return why
		}
		return m.statusChange(stack)
	})
}

// statusChange says why the use at the top of stack changes the object's
// status (assigned, incremented, or its address taken: useProblem allows
// that for a status write, which apply mode does not), "" if it does not.
func (m *migration) statusChange(stack []ast.Node) string {
	top, changed := changedAt(stack, len(stack)-1)
	if e, ok := stack[top].(ast.Expr); ok && changed {
		return fmt.Sprintf("%s is changed at line %d: apply mode applies only the configuration", types.ExprString(e), m.pass.Fset.Position(e.Pos()).Line)
	}
	return ""
}

// applyEdits builds the fix of a moved apply: the patcher made after the
// Get in apply mode, the configuration's status given to ApplyStatus
// before the statement holding the write, the write made its Flush, and
// the packages imported.
func (m *migration) applyEdits(p patcherInfo) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := m.qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	pqual, pimportEdit, why := m.qualifier(patcherPkgPath)
	if why != "" {
		return nil, why
	}
	stmt := m.enclosingStmt()
	if stmt == nil {
		return nil, m.shapeWhy("the apply is not in a statement of a block")
	}
	name := m.freePatcherName()
	objText := m.obj.Name()
	if m.apply.addr {
		objText = "&" + objText
	}
	ctor := fmt.Sprintf("%s := %sNew%s(%s, %s, %sWithWriteMode(%sWriteApply), %sWithFieldOwner(%s))",
		name, qual, p.Type, m.clientText, objText, pqual, pqual, pqual, m.ownerText())
	give := fmt.Sprintf("_ = %s.Patcher().ApplyStatus(%s.Status) // Flush returns its error too\n%s",
		name, types.ExprString(m.apply.ac), m.indent(stmt.Pos()))
	edits := []analysis.TextEdit{
		{Pos: m.anchor.End(), End: m.anchor.End(), NewText: []byte("\n" + m.indent(m.anchor.Pos()) + ctor)},
		{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(give)},
		{Pos: m.call.Pos(), End: m.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(m.call.Args[0])))},
	}
	switch {
	case importEdit != nil && pimportEdit != nil && importEdit.Pos == pimportEdit.Pos:
		// Two specs at one place: one edit, in sorted order.
		first, second := importEdit, pimportEdit
		if patcherPkgPath < p.Pkg {
			first, second = pimportEdit, importEdit
		}
		edits = append(edits, analysis.TextEdit{Pos: first.Pos, End: first.End, NewText: append(append([]byte{}, first.NewText...), second.NewText...)})
	default:
		for _, e := range []*analysis.TextEdit{importEdit, pimportEdit} {
			if e != nil {
				edits = append(edits, *e)
			}
		}
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + " in apply mode (New" + p.Type + " with the field owner, ApplyStatus, then Flush)", TextEdits: edits}, ""
}

// enclosingStmt returns the statement of a block that holds the write.
func (m *migration) enclosingStmt() ast.Stmt {
	for i, n := range m.path {
		if i+1 >= len(m.path) {
			break
		}
		s, ok := n.(ast.Stmt)
		if !ok {
			continue
		}
		switch m.path[i+1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}
