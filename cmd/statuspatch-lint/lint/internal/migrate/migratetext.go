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
func (si *site) indent(pos token.Pos) string {
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
func (si *site) qualifier(pkgPath string) (string, *analysis.TextEdit, string) {
	if pkgPath == si.pass.Pkg.Path() {
		return "", nil, ""
	}
	for _, imp := range si.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == pkgPath {
			if pn := si.pass.TypesInfo.PkgNameOf(imp); pn != nil && pn.Name() != "_" && pn.Name() != "." {
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

// importEdit adds an import spec in sorted position: after the last import
// of the same group kind (standard library or not) that sorts before it.
func (si *site) importEdit(pkgPath, spec string) *analysis.TextEdit {
	std := func(p string) bool { return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }
	var after, before *ast.ImportSpec
	for _, imp := range si.file.Imports {
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
	for _, d := range si.file.Decls {
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
	return &analysis.TextEdit{Pos: si.file.Name.End(), End: si.file.Name.End(), NewText: []byte("\n\nimport " + spec)}
}

// nameTaken reports whether name is declared in the package, the
// universe or the file's imports, or appears in the function holding the
// write (its top-level declaration, closures included).
func (si *site) nameTaken(name string) bool {
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

// source returns n's text in its file (types.ExprString of an expression
// when the file cannot be read).
func (si *site) source(n ast.Expr) string {
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
func (si *site) deleteStmt(s ast.Stmt) analysis.TextEdit {
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
