package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A scope's field (cluster-api's per-reconcile scope): Reconcile reads
// r.Get(ctx, key, scope.Machine) into a field of a local scope :=
// &machineScope{Machine: &Machine{}} and hands scope to reconcileNormal,
// whose writes name m := s.Machine. The object is the helper's alias m,
// the scope the parameter s: the helper takes the patcher beside s, each
// write a Flush of it, and each caller makes it after its Get into
// scope.Machine and passes it beside scope. It moves when s's type is a
// struct of the package, s is only selected (never handed on whole),
// s.Machine is used only by m := s.Machine, the field Machine (or the
// whole scope, *s = ...) is assigned nowhere in the package (the
// patcher's object stays the field's), and each caller's scope is a
// literal local it only selects from, read with Get before the call,
// between which and the call the field is only read, and handed to no
// other function unless that one moves too. A method called on s, in
// the helper or the caller, must only read s's other fields
// (migratescopemethod.go).

// scopeField is a helper's object taken from its scope parameter.
type scopeField struct {
	param *types.Var // the scope s, a parameter of the helper
	field *types.Var // the field of s the object is, Machine
	def   ast.Stmt   // m := s.Machine, a statement of the helper's body
}

// scopeAlias makes h a scope field's move when its object is a local
// m := s.F of a function's body, s a parameter of a pointer to a struct
// type of the package (h.scope and h.decl set; h.obj stays m).
func scopeAlias(h *helperMove) {
	fd, ok := h.enclosingFunc().(*ast.FuncDecl)
	if !ok || fd.Body == nil || h.apply != nil {
		return
	}
	def, val := h.definition(h.obj)
	sel, ok := ast.Unparen(val).(*ast.SelectorExpr)
	if def == nil || !ok || !slices.Contains(fd.Body.List, def) {
		return
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	s, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	selection := h.pass.TypesInfo.Selections[sel]
	if !ok || s == nil || selection == nil || selection.Kind() != types.FieldVal || h.paramOf(s) != fd.Name.Name {
		return
	}
	ptr, ok := types.Unalias(s.Type()).(*types.Pointer)
	if !ok {
		return
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() != h.pass.Pkg {
		return
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return
	}
	field, _ := selection.Obj().(*types.Var)
	if field == nil || !types.Identical(field.Type(), h.obj.Type()) {
		return
	}
	h.scope, h.decl = &scopeField{param: s, field: field, def: def}, fd
}

// scopeFix plans a scope field's move (scopeField), or says why it stays.
func scopeFix(h *helperMove, p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	fd, sc := h.decl, h.scope
	name := fd.Name.Name
	why := func(format string, args ...any) (*analysis.SuggestedFix, string) {
		return nil, h.shapeWhy(fmt.Sprintf("%s is %s.%s, the field of %s, a parameter of %s: ", h.obj.Name(), sc.param.Name(), sc.field.Name(), sc.param.Name(), name) + fmt.Sprintf(format, args...))
	}
	fn, _ := h.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	switch {
	case fn == nil || token.IsExported(name):
		return why("%s is exported: -fix gives the patcher beside a scope only to an unexported function", name)
	case fd.Recv != nil && h.interfaceHas(name):
		return why("an interface of the package has a method %s: calls through it are not seen", name)
	}
	if w := h.testsMayCall(name, opts); w != "" {
		return why("%s", w)
	}
	if w := scopeOnlySelected(h.migration, fd, sc.param, sc.field, sc.def); w != "" {
		return why("%s", w)
	}
	if w := fieldAssigned(h.migration, sc.field, types.Unalias(sc.param.Type()).(*types.Pointer).Elem()); w != "" {
		return why("%s", w)
	}
	also, problem := helperGroup(h, files, ws, opts)
	if problem != "" {
		return why("%s", problem)
	}
	h.also = also
	h.moved = map[*ast.CallExpr]bool{h.call: true}
	last := h.call.Pos()
	for _, c := range also {
		h.moved[c], last = true, max(last, c.Pos())
	}
	if w := h.checks().checkUses(fd.Body, h.obj, sc.def.End(), last, 0); w != "" {
		return why("%s", w)
	}
	index, recvRoot, clientRest, problem := h.helperClient(fd)
	if problem != "" {
		return why("%s", problem)
	}
	sIndex := slices.Index(h.params(), sc.param)
	pname := lowerFirst(sc.field.Name()) + "Patcher"
	if h.text().nameTaken(pname) {
		return why("the name %s is taken in %s", pname, name)
	}
	qual, importEdit, w := h.text().qualifier(p.Pkg)
	if w != "" {
		return nil, w
	}
	var edits []analysis.TextEdit
	writes := append([]*ast.CallExpr{h.call}, also...)
	for _, c := range writes {
		edits = append(edits, analysis.TextEdit{Pos: c.Pos(), End: c.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", pname, types.ExprString(c.Args[0])))})
	}
	for _, f := range fd.Type.Params.List {
		if slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return h.pass.TypesInfo.Defs[n] == sc.param }) {
			edits = append(edits, analysis.TextEdit{Pos: f.End(), End: f.End(), NewText: []byte(", " + pname + " *" + qual + p.Type)})
		}
	}
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	imported := map[*ast.File]bool{h.file: importEdit != nil || qual == ""}
	pimported := map[*ast.File]bool{}
	called := false
	for _, f := range h.pass.Files {
		for cur := range h.usesOf(f, fn, f.FileStart, f.FileEnd) {
			id := cur.Node().(*ast.Ident)
			line := h.pass.Fset.Position(id.Pos()).Line
			call, recv := callOf(cur)
			if call == nil || call.Ellipsis.IsValid() || sIndex >= len(call.Args) {
				return why("it is used at line %d other than in a call", line)
			}
			if !files.Checked(call.Pos()) {
				return why("its call at line %d is in a test or generated file", line)
			}
			c := &migration{site: site{place: place{calls: h.calls, file: f, call: call, path: pathOf(cur)}}, audit: h.audit, module: h.module, assumed: h.assumed, patcherType: h.patcherType}
			called = true
			ce, rest, w := scopeCaller(h, c, sc, recv, index, recvRoot, clientRest, line, files, ws, opts)
			if w != "" {
				return why("%s", w)
			}
			if c.text().nameTaken(pname) {
				return why("its caller at line %d has a %s already", line, pname)
			}
			cqual, cimport, w := c.text().qualifier(p.Pkg)
			if w != "" {
				return nil, w
			}
			c.owner = h.owner // the writes' field owner (checkOwner)
			if w := callerOwner(h, c, nil, files, ws, opts); w != "" {
				return why("%s", w)
			}
			copts, pimport, w := c.patcherOptions(c.text())
			if w != "" {
				return nil, w
			}
			if imported[f] {
				cimport = nil
			}
			if pimported[f] {
				pimport = nil
			}
			imported[f], pimported[f] = true, true
			edits = append(edits, importEdits(p.Pkg, cimport, kube.PatcherPkgPath, pimport)...)
			ctor := fmt.Sprintf("\n%s%s := %sNew%s(%s%s, %s%s)", c.text().indent(c.anchor.Pos()), pname, cqual, p.Type, types.ExprString(ce), rest, types.ExprString(c.call.Args[sIndex])+"."+sc.field.Name(), copts)
			edits = append(edits,
				analysis.TextEdit{Pos: c.anchor.End(), End: c.anchor.End(), NewText: []byte(ctor)},
				analysis.TextEdit{Pos: call.Args[sIndex].End(), End: call.Args[sIndex].End(), NewText: []byte(", " + pname)})
		}
	}
	if !called {
		return nil, h.shapeWhy(fieldWhy(h.reads(), defExpr(sc.def), h.obj.Name()))
	}
	each := "then Flush"
	if len(writes) > 1 {
		each = fmt.Sprintf("then Flush at each of its %d writes", len(writes))
	}
	msg := fmt.Sprintf("%s%s (%s takes the patcher beside %s, which its callers make after their Get of %s.%s, %s)", migrateFixPrefix, p.Type, name, sc.param.Name(), sc.param.Name(), sc.field.Name(), each)
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}, ""
}

// scopeOnlySelected says where scope s, in fn, is used other than by
// selecting a field of it, or its field f other than by def.
func scopeOnlySelected(pl *migration, fn ast.Node, s, f *types.Var, def ast.Stmt) string {
	for cur := range pl.usesOf(fn, s, fn.Pos(), fn.End()) {
		sel, ok := cur.Parent().Node().(*ast.SelectorExpr)
		if !ok || sel.X != cur.Node() {
			return fmt.Sprintf("%s is handed on or aliased at %s: a change of its %s there is not followed", s.Name(), pl.where(cur.Node().Pos()), f.Name())
		}
		if w := scopeMethod(pl, pathOf(cur), f); w != "" {
			return w
		}
		if selection := pl.pass.TypesInfo.Selections[sel]; selection != nil && selection.Obj() == f && (def == nil || sel.Pos() < def.Pos() || sel.End() > def.End()) {
			return fmt.Sprintf("%s.%s is used at %s other than by %s", s.Name(), f.Name(), pl.where(sel.Pos()), pl.text().source(defExpr(def)))
		}
	}
	return ""
}

// defExpr is the expression of a statement for a reason: the assignment.
func defExpr(def ast.Stmt) ast.Expr {
	if as, ok := def.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
		return as.Rhs[0]
	}
	return &ast.Ident{Name: "its definition"}
}

// fieldAssigned says where the package assigns the field f, or takes its
// address, or assigns a whole scope of type st (*s = scope{...}): the
// patcher made over the field's object would be left.
func fieldAssigned(m *migration, f *types.Var, st types.Type) string {
	pass := m.pass
	for _, file := range pass.Files {
		found := ""
		ast.Inspect(file, func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				targets = n.Lhs
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					targets = []ast.Expr{n.X}
				}
			}
			for _, t := range targets {
				if sel, ok := ast.Unparen(t).(*ast.SelectorExpr); ok && pass.TypesInfo.Selections[sel] != nil && pass.TypesInfo.Selections[sel].Obj() == f {
					found = fmt.Sprintf("the field %s is assigned at %s: the patcher made after its Get would not hold what it is then", f.Name(), m.where(sel.Pos()))
				}
				if as, ok := n.(*ast.AssignStmt); ok && wholeScope(pass, as, t, st) {
					found = fmt.Sprintf("the scope %s is assigned whole at %s, its field %s with it: the patcher made after its Get would not hold what it is then", types.TypeString(st, types.RelativeTo(pass.Pkg)), m.where(t.Pos()), f.Name())
				}
			}
			return found == ""
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// wholeScope reports whether t, a target of as, is a scope of type st
// assigned whole (*s = ..., v = ...), not a variable as declares.
func wholeScope(pass *analysis.Pass, as *ast.AssignStmt, t ast.Expr, st types.Type) bool {
	if id, ok := ast.Unparen(t).(*ast.Ident); ok && (id.Name == "_" || as.Tok == token.DEFINE && pass.TypesInfo.Defs[id] != nil) {
		return false
	}
	tt := pass.TypesInfo.TypeOf(t)
	return tt != nil && types.Identical(tt, st)
}
