package lint

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// writeTokenMarker marks a kind's status field as its write token
// (statuspatch-gen's +statuspatch:writeToken): the generated patcher
// puts a fresh token there in every status write it sends, and settles a
// lost answer by it, so nothing else may write the field (docs/patcher.md).
const writeTokenMarker = "+statuspatch:writeToken"

// writeTokenFact marks a struct field as a write token. The analysis of
// the package that declares the field exports it, from the field's doc
// comment, so that the packages that write the field, usually others
// (the reconcilers), know it.
type writeTokenFact struct {
	Struct string // the name of the struct type that declares the field
}

func (*writeTokenFact) AFact() {}

func (*writeTokenFact) String() string { return "writeToken" }

// checkWriteTokens exports the write-token facts of the package's fields
// and returns a finding for every handwritten write of such a field, of
// this package or another, in the files the configuration checks
// (generated files never: statuspatch-gen's patcher reads the token and
// takes its address, a deep copy copies it).
func checkWriteTokens(pass *analysis.Pass, cfg Config) []analysis.Diagnostic {
	exportWriteTokens(pass)
	var diags []analysis.Diagnostic
	report := func(n ast.Node, id *ast.Ident, fix string) {
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || !v.IsField() {
			return
		}
		var f writeTokenFact
		if !pass.ImportObjectFact(v.Origin(), &f) {
			return
		}
		diags = append(diags, analysis.Diagnostic{
			Pos: n.Pos(), End: n.End(), Category: "writetoken",
			Message: f.Struct + "." + v.Name() + " is the write token (" + writeTokenMarker + "): the patcher sets it on every write; " + fix,
		})
	}
	for _, file := range pass.Files {
		tf := pass.Fset.File(file.FileStart)
		if tf == nil || ast.IsGenerated(file) || (!cfg.Tests && strings.HasSuffix(tf.Name(), "_test.go")) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					return true
				}
				for _, lhs := range n.Lhs {
					if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
						report(lhs, sel.Sel, "remove this assignment")
					}
				}
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							report(kv, id, "remove "+id.Name+" from this literal")
						}
					}
				}
			}
			return true
		})
	}
	return diags
}

// exportWriteTokens exports a writeTokenFact for every string field of a
// struct type declared at package level whose doc comment holds the
// marker, read from the package's own syntax (the analyzer reads no file).
func exportWriteTokens(pass *analysis.Pass) {
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					if !hasWriteTokenMarker(field.Doc) {
						continue
					}
					for _, name := range field.Names {
						v, ok := pass.TypesInfo.Defs[name].(*types.Var)
						if ok && types.Identical(v.Type().Underlying(), types.Typ[types.String]) {
							pass.ExportObjectFact(v, &writeTokenFact{Struct: ts.Name.Name})
						}
					}
				}
			}
		}
	}
}

// hasWriteTokenMarker reports whether a doc comment holds the marker on
// a line of its own, as controller-tools reads markers.
func hasWriteTokenMarker(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if text == writeTokenMarker {
			return true
		}
	}
	return false
}
