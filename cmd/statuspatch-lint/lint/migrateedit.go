package lint

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// checkMutations returns why the code between the anchor and the write
// may change more of the object than its status, or replace it: the
// patcher's Flush writes the status only (and refuses a change elsewhere
// with patcher.ErrNonStatusChange). The object may be read, its status
// assigned or passed by address, its getters and DeepCopy called;
// anything else (a field outside the status assigned or addressed, a
// method of the object called, the object passed on, aliased or
// reassigned) keeps the write as it is.
func (m *migration) checkMutations() string {
	return m.checkUses(m.enclosingFunc(), m.obj, m.anchor.End(), m.call.Pos(), 0)
}

// checkUses checks the uses of v in root between from and to. A call of a
// function of the package that takes v as an argument is checked, in turn,
// for its uses of that parameter, up to a few calls deep.
func (m *migration) checkUses(root ast.Node, v *types.Var, from, to token.Pos, depth int) string {
	return m.eachUse(root, v, from, to, func(stack []ast.Node, id *ast.Ident) string {
		if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && (m.checkCallee(call, id, depth) || m.allowedCall(stack, call, id, v)) {
			return ""
		}
		return m.useProblem(stack, v)
	})
}

// eachUse calls check with the path from root to each use of v between
// from and to, until one returns why it is a problem, and returns that.
func (m *migration) eachUse(root ast.Node, v *types.Var, from, to token.Pos, check func(stack []ast.Node, id *ast.Ident) string) string {
	var why string
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok && id.Pos() >= from && id.Pos() < to && m.pass.TypesInfo.Uses[id] == v {
			why = check(stack, id)
		}
		return true
	})
	return why
}

// checkCallee reports whether call, which passes id as an argument, is a
// call of a function declared in the package whose uses of that
// parameter change at most the status.
func (m *migration) checkCallee(call *ast.CallExpr, id *ast.Ident, depth int) bool {
	fn := calledFunc(m.pass, call)
	if fn == nil || fn.Pkg() != m.pass.Pkg || depth >= 3 || call.Ellipsis.IsValid() {
		return false
	}
	arg := -1
	for i, a := range call.Args {
		if a == id {
			arg = i
		}
	}
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || m.pass.TypesInfo.Defs[fd.Name] != fn {
				continue
			}
			var params []*ast.Ident
			for _, field := range fd.Type.Params.List {
				params = append(params, field.Names...)
			}
			if arg < 0 || arg >= len(params) || fn.Signature().Variadic() && arg >= len(params)-1 {
				return false
			}
			p, ok := m.pass.TypesInfo.Defs[params[arg]].(*types.Var)
			return ok && m.checkUses(fd.Body, p, fd.Body.Pos(), fd.Body.End(), depth+1) == ""
		}
	}
	return false
}

// useProblem says what is wrong with one use of the object (the last
// node of stack), "" if nothing.
func (m *migration) useProblem(stack []ast.Node, v *types.Var) string {
	line := m.pass.Fset.Position(stack[len(stack)-1].Pos()).Line
	name := v.Name()
	parent := func(i int) ast.Node {
		if i < 0 {
			return nil
		}
		return stack[i]
	}
	i := len(stack) - 1
	sel, ok := parent(i - 1).(*ast.SelectorExpr)
	if !ok || sel.X != stack[i] {
		if as, ok := parent(i - 1).(*ast.AssignStmt); ok && isLHS(as, stack[i]) {
			return fmt.Sprintf("%s is reassigned at line %d", name, line)
		}
		return fmt.Sprintf("%s is passed on or aliased at line %d: it may change more than its status", name, line)
	}
	if s := m.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() != types.FieldVal {
		switch n := sel.Sel.Name; {
		case strings.HasPrefix(n, "Get"), n == "DeepCopy", n == "DeepCopyObject", n == "DeepCopyInto":
			return ""
		}
		return fmt.Sprintf("%s.%s is called at line %d: it may change more than the status", name, sel.Sel.Name, line)
	}
	if sel.Sel.Name == "Status" {
		return ""
	}
	// A field outside the status: reading it is fine, changing it is not.
	if _, changed := changedAt(stack, i-1); changed {
		return fmt.Sprintf("%s.%s is changed at line %d: the patcher writes only the status", name, sel.Sel.Name, line)
	}
	return ""
}

// changedAt climbs from stack[top] to the outermost expression of its
// chain of selections, indexes, parentheses and dereferences, and reports
// that expression's index and whether it is changed there: assigned,
// incremented or decremented, or its address taken.
func changedAt(stack []ast.Node, top int) (int, bool) {
	parent := func(i int) ast.Node {
		if i < 0 {
			return nil
		}
		return stack[i]
	}
	for {
		switch p := parent(top - 1).(type) {
		case *ast.SelectorExpr:
			if p.X == stack[top] {
				top--
				continue
			}
		case *ast.IndexExpr:
			if p.X == stack[top] {
				top--
				continue
			}
		case *ast.ParenExpr, *ast.StarExpr:
			top--
			continue
		}
		break
	}
	switch p := parent(top - 1).(type) {
	case *ast.AssignStmt:
		return top, isLHS(p, stack[top])
	case *ast.IncDecStmt:
		return top, true
	case *ast.UnaryExpr:
		return top, p.Op == token.AND
	}
	return top, false
}

func isLHS(as *ast.AssignStmt, n ast.Node) bool {
	for _, l := range as.Lhs {
		if l == n {
			return true
		}
	}
	return false
}

func (m *migration) enclosingFunc() ast.Node {
	for _, n := range m.path {
		switch n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return n
		}
	}
	return m.file
}

// isClient reports whether e's type implements client.Client.
func (m *migration) isClient(e ast.Expr) bool {
	return m.implementsClient(m.pass.TypesInfo.TypeOf(e))
}

// implementsClient reports whether t implements client.Client.
func (m *migration) implementsClient(t types.Type) bool {
	pkg := importedPkg(m.pass.Pkg, clientPkgPath)
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

// importedPkg finds the package of path among pkg's imports, directly or not.
func importedPkg(pkg *types.Package, p string) *types.Package {
	seen := map[*types.Package]bool{}
	var find func(*types.Package) *types.Package
	find = func(q *types.Package) *types.Package {
		if q.Path() == p {
			return q
		}
		if seen[q] {
			return nil
		}
		seen[q] = true
		for _, i := range q.Imports() {
			if r := find(i); r != nil {
				return r
			}
		}
		return nil
	}
	return find(pkg)
}

// edits builds the fix: the patcher made at the anchor, the write turned
// into its Flush, and the patcher's package imported if needed.
func (m *migration) edits(p patcherInfo, name string) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := m.qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	ctor := fmt.Sprintf("%s := %sNew%s(%s, %s)", name, qual, p.Type, m.clientText, m.obj.Name())
	var edits []analysis.TextEdit // the first is where the command says the fix is
	if m.fetch != nil {
		edits = append(edits, m.fetchEdits(m.fetch, qual, p.Type, name)...)
	} else if m.keep {
		edits = append(edits, analysis.TextEdit{Pos: m.anchor.End(), End: m.anchor.End(), NewText: []byte("\n" + m.indent(m.anchor.Pos()) + ctor)})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: m.anchor.Pos(), End: m.anchor.End(), NewText: []byte(ctor)})
	}
	flush := fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(m.call.Args[0]))
	edits = append(edits, analysis.TextEdit{Pos: m.call.Pos(), End: m.call.End(), NewText: []byte(flush)})
	for _, f := range m.rereads {
		edits = append(edits, m.fetchEdits(f, qual, p.Type, name)...)
	}
	if m.late != nil && !m.lateKeep {
		edits = append(edits, m.deleteStmt(m.late))
	}
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	how := " (New" + p.Type + ", then Flush)"
	if m.fetch != nil {
		how = " (Fetch" + p.Type + " at the re-read, then Flush)"
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + how + m.lateNote(), TextEdits: edits}, ""
}

// indent returns the white space before pos on its line.
func (m *migration) indent(pos token.Pos) string {
	tf := m.pass.Fset.File(pos)
	src, err := m.pass.ReadFile(tf.Name())
	if err != nil {
		return "\t"
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := tf.Offset(pos)
	if start > end || end > len(src) || len(bytes.TrimLeft(src[start:end], "\t ")) != 0 {
		return "\t"
	}
	return string(src[start:end])
}

// qualifier returns how the file names the patcher's package ("" for the
// package itself), and the edit importing it when the file does not.
func (m *migration) qualifier(pkgPath string) (string, *analysis.TextEdit, string) {
	if pkgPath == m.pass.Pkg.Path() {
		return "", nil, ""
	}
	for _, imp := range m.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == pkgPath {
			if pn := m.pass.TypesInfo.PkgNameOf(imp); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				return pn.Name() + ".", nil, ""
			}
			return "", nil, "the patcher package " + pkgPath + " is imported as _ or ."
		}
	}
	name := path.Base(pkgPath)
	if q := importedPkg(m.pass.Pkg, pkgPath); q != nil {
		name = q.Name()
	}
	if !token.IsIdentifier(name) || m.nameTaken(name) {
		return "", nil, "the patcher package " + pkgPath + " cannot be imported as " + name + " in this file"
	}
	spec := strconv.Quote(pkgPath)
	if name != path.Base(pkgPath) {
		spec = name + " " + spec
	}
	return name + ".", m.importEdit(pkgPath, spec), ""
}

// importEdit adds an import spec in sorted position: after the last import
// of the same group kind (standard library or not) that sorts before it.
func (m *migration) importEdit(pkgPath, spec string) *analysis.TextEdit {
	std := func(p string) bool { return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }
	var after, before *ast.ImportSpec
	for _, imp := range m.file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if std(p) != std(pkgPath) {
			continue
		}
		if p < pkgPath {
			after = imp
		} else if before == nil {
			before = imp
		}
	}
	var last *ast.GenDecl
	for _, d := range m.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
			if gd.Lparen.IsValid() {
				switch {
				case after != nil && gd.Pos() <= after.Pos() && after.End() <= gd.End():
					return &analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte("\n\t" + spec)}
				case after == nil && before != nil && gd.Pos() <= before.Pos() && before.End() <= gd.End():
					return &analysis.TextEdit{Pos: before.Pos(), End: before.Pos(), NewText: []byte(spec + "\n\t")}
				case after == nil && before == nil:
					return &analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\n\t" + spec + "\n")}
				}
			}
		}
	}
	if last != nil {
		return &analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}
	}
	return &analysis.TextEdit{Pos: m.file.Name.End(), End: m.file.Name.End(), NewText: []byte("\n\nimport " + spec)}
}

// nameTaken reports whether name is declared in the package, the
// universe or the file's imports, or appears in the function holding the
// write (its top-level declaration, closures included).
func (m *migration) nameTaken(name string) bool {
	if m.pass.Pkg.Scope().Lookup(name) != nil || types.Universe.Lookup(name) != nil {
		return true
	}
	for _, imp := range m.file.Imports {
		if pn := m.pass.TypesInfo.PkgNameOf(imp); pn != nil && pn.Name() == name {
			return true
		}
	}
	var fn ast.Node = m.file
	for _, n := range m.path {
		if _, ok := n.(*ast.FuncDecl); ok {
			fn = n
		}
	}
	taken := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			taken = true
		}
		return !taken
	})
	return taken
}
