package migrate

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// indent returns the white space before pos on its line.
func (si text) indent(pos token.Pos) string {
	tf := si.pass.Fset.File(pos)
	src, err := si.pass.ReadFile(tf.Name())
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
func (si text) qualifier(pkgPath string) (string, *analysis.TextEdit, string) {
	if pkgPath == si.pass.Pkg.Path() {
		return "", nil, ""
	}
	for _, imp := range si.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == pkgPath {
			if pn := si.pass.TypesInfo.PkgNameOf(imp); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				if si.declaredInFunc(pn.Name()) {
					// A local of that name would take the qualifier
					// (patchers := 0, then patchers.New...: no build).
					return "", nil, "the patcher package " + pkgPath + " is imported as " + pn.Name() + ", a name this function declares too"
				}
				return pn.Name() + ".", nil, ""
			}
			return "", nil, "the patcher package " + pkgPath + " is imported as _ or ."
		}
	}
	name := path.Base(pkgPath)
	if q := importedPkg(si.pass.Pkg, pkgPath); q != nil {
		name = q.Name()
	}
	if !token.IsIdentifier(name) || si.nameTaken(name) {
		return "", nil, "the patcher package " + pkgPath + " cannot be imported as " + name + " in this file"
	}
	spec := strconv.Quote(pkgPath)
	if name != path.Base(pkgPath) {
		spec = name + " " + spec
	}
	return name + ".", si.importEdit(pkgPath, spec), ""
}

// importEdit adds an import spec in sorted position, in the group of
// its kind (importKind: the standard library, other modules, the
// package's own module, the order goimports -local keeps): after the last
// import of that kind that sorts before it, or before the first that
// sorts after it; with none of its kind, a group of its own, between the
// groups of the kinds before and after it.
func (si text) importEdit(pkgPath, spec string) *analysis.TextEdit {
	kind := si.importKind(pkgPath)
	var after, before, lastBelow, firstAbove *ast.ImportSpec
	for _, imp := range si.file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		switch k := si.importKind(p); {
		case k < kind:
			lastBelow = imp
		case k > kind:
			if firstAbove == nil {
				firstAbove = imp
			}
		case p < pkgPath:
			after = imp
		case before == nil:
			before = imp
		}
	}
	var last *ast.GenDecl
	for _, d := range si.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		last = gd
		if !gd.Lparen.IsValid() {
			continue
		}
		in := func(imp *ast.ImportSpec) bool { return imp != nil && gd.Pos() <= imp.Pos() && imp.End() <= gd.End() }
		switch {
		case in(after):
			return &analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte("\n\t" + spec)}
		case after == nil && in(before):
			return &analysis.TextEdit{Pos: before.Pos(), End: before.Pos(), NewText: []byte(spec + "\n\t")}
		case after != nil || before != nil:
		case in(firstAbove):
			// A group of its own before the kinds after it.
			return &analysis.TextEdit{Pos: firstAbove.Pos(), End: firstAbove.Pos(), NewText: []byte(spec + "\n\n\t")}
		case in(lastBelow):
			return &analysis.TextEdit{Pos: lastBelow.End(), End: lastBelow.End(), NewText: []byte("\n\n\t" + spec)}
		case lastBelow == nil && firstAbove == nil:
			return &analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\n\t" + spec + "\n")}
		}
	}
	if last != nil {
		return &analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}
	}
	return &analysis.TextEdit{Pos: si.file.Name.End(), End: si.file.Name.End(), NewText: []byte("\n\nimport " + spec)}
}

// importKind is the group an import path sorts in: 0 the standard
// library (no dot in its first element), 2 the package's own module, 1
// the others. The module is the pass's; a driver that gives none (GOPATH
// testdata) has the package's first path element for it, or its first
// three on a code host (github.com/owner/repo).
func (si text) importKind(p string) int {
	first, _, _ := strings.Cut(p, "/")
	if !strings.Contains(first, ".") {
		return 0
	}
	mod := ""
	if si.pass.Module != nil {
		mod = si.pass.Module.Path
	}
	if mod == "" {
		parts := strings.SplitN(si.pass.Pkg.Path(), "/", 4)
		mod = parts[0]
		if len(parts) >= 3 && (parts[0] == "github.com" || parts[0] == "gitlab.com" || parts[0] == "bitbucket.org") {
			mod = strings.Join(parts[:3], "/")
		}
	}
	if p == mod || strings.HasPrefix(p, mod+"/") {
		return 2
	}
	return 1
}

// nameTaken reports whether name is declared in the package, the
// universe or the file's imports, or appears in the function holding the
// write (its top-level declaration, closures included).
func (si text) nameTaken(name string) bool {
	if si.pass.Pkg.Scope().Lookup(name) != nil || types.Universe.Lookup(name) != nil {
		return true
	}
	for _, imp := range si.file.Imports {
		if pn := si.pass.TypesInfo.PkgNameOf(imp); pn != nil && pn.Name() == name {
			return true
		}
	}
	var fn ast.Node = si.file
	for _, n := range si.path {
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

// declaredInFunc reports whether the function declaration around the
// write declares name (a local, a parameter, a result), which would
// shadow an import of that name in it.
func (si text) declaredInFunc(name string) bool {
	var fn ast.Node
	for _, n := range si.path {
		if _, ok := n.(*ast.FuncDecl); ok {
			fn = n
		}
	}
	if fn == nil {
		return false
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && si.pass.TypesInfo.Defs[id] != nil {
			found = true
		}
		return !found
	})
	return found
}

// source returns n's text in its file (types.ExprString of an expression
// when the file cannot be read).
func (si text) source(n ast.Expr) string {
	tf := si.pass.Fset.File(n.Pos())
	if tf != nil {
		if src, err := si.pass.ReadFile(tf.Name()); err == nil && tf.Offset(n.End()) <= len(src) {
			return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
		}
	}
	return types.ExprString(n)
}

// deleteStmt is the edit dropping s, its whole line when it is alone
// there.
func (si text) deleteStmt(s ast.Stmt) analysis.TextEdit {
	from, to := s.Pos(), s.End()
	tf := si.pass.Fset.File(from)
	if src, err := si.pass.ReadFile(tf.Name()); err == nil {
		start, end := tf.Offset(tf.LineStart(tf.Line(from))), tf.Offset(to)
		if len(bytes.TrimLeft(src[start:tf.Offset(from)], "\t ")) == 0 && end < len(src) && src[end] == '\n' {
			from, to = tf.LineStart(tf.Line(from)), to+1
		}
	}
	return analysis.TextEdit{Pos: from, End: to}
}

// moved is n's text in its file with its lines after the first moved
// from the indent from to the indent to.
func (si text) moved(n ast.Node, from, to string) (string, bool) {
	tf := si.pass.Fset.File(n.Pos())
	src, err := si.pass.ReadFile(tf.Name())
	if err != nil {
		return "", false
	}
	return strings.ReplaceAll(string(src[tf.Offset(n.Pos()):tf.Offset(n.End())]), "\n"+from, "\n"+to), true
}
