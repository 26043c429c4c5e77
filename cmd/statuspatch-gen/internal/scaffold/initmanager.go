package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// patcherPkg is the runtime package the reconcilers' setup imports.
const patcherPkg = runtimeModule + "/patcher"

// clientPkg is controller-runtime's client package.
const clientPkg = "sigs.k8s.io/controller-runtime/pkg/client"

// managerEdits wires patcher.ForManager into the SetupWithManager of each
// kind's reconciler (internal/controller/<kind>_controller.go in
// kubebuilder v4, or the file declaring <Kind>Reconciler), as
// README.md's "Using it" does: the manager's client carrying the patchers'
// defaults (the manager's API reader for fresh reads and re-bases, its
// watcher) and the controller's name as the field owner. A reconciler that
// mentions ForManager already is left as it is; one init cannot wire is
// named in a note.
func managerEdits(dir string, p *kbProject) ([]fileEdit, []string, error) {
	var edits []fileEdit
	var notes []string
	seen := map[string]bool{}
	for _, r := range p.Resources {
		if (!r.Controller && len(r.Controllers) == 0) || r.Kind == "" {
			continue
		}
		ctrlDir := p.controllerDir(r)
		if ctrlDir == "" {
			continue
		}
		// kubebuilder's <kind>_controller.go, or the file that declares
		// <Kind>Reconciler
		rel := path.Join(ctrlDir, strings.ToLower(r.Kind)+"_controller.go")
		_, structs, err := packageStructs(filepath.Join(dir, filepath.FromSlash(ctrlDir)))
		if err != nil {
			return nil, nil, err
		}
		if st, ok := structs[r.Kind+"Reconciler"]; ok {
			rel = path.Join(ctrlDir, st.file)
		}
		if seen[rel] {
			continue
		}
		seen[rel] = true
		src, err := readText(dir, rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		out, why, err := wireForManagerIn(rel, src, r.Kind, structs)
		if err != nil {
			return nil, nil, err
		}
		if why != "" {
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: patcher.ForManager not wired into SetupWithManager: %s (README.md's \"Using it\" shows the line)", rel, why))
		}
		if out != src {
			edits = append(edits, fileEdit{path: rel, old: src, new: out})
		}
	}
	return edits, notes, nil
}

// wireForManager returns src with
//
//	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("<controller name>"))
//
// first in (*<kind>Reconciler).SetupWithManager and the patcher package
// imported, or src and why not ("" when there is nothing to do: no such
// method, or ForManager mentioned in it already). The reconciler's Client
// is its own field, or one promoted from a struct of the package it
// embeds (pkgStructs: the package's other files; a Base holding the
// client). A statement r.Client = mgr.GetClient() there (or
// r.Base.Client = ...) becomes that line; one setting it to anything else
// is left, and said. The controller name is the argument of Named in the
// method (kubebuilder's scaffold), else the kind in lower case,
// controller-runtime's default.
func wireForManager(rel, src, kind string) (string, string, error) {
	return wireForManagerIn(rel, src, kind, nil)
}

// wireForManagerIn is wireForManager where the package's other files
// declare pkgStructs.
func wireForManagerIn(rel, src, kind string, pkgStructs map[string]declaredStruct) (string, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", "", fmt.Errorf("statuspatch-gen init: %w", err)
	}
	setup := setupWithManager(f, kind+"Reconciler")
	if setup == nil || strings.Contains(src[fset.Position(setup.Body.Lbrace).Offset:fset.Position(setup.Body.Rbrace).Offset], "ForManager") {
		return src, "", nil
	}
	structs := map[string]declaredStruct{}
	addFileStructs(structs, f, filepath.Base(rel))
	for n, st := range pkgStructs {
		if _, ok := structs[n]; !ok && st.file != filepath.Base(rel) {
			structs[n] = st
		}
	}
	via, ok := clientVia(structs, kind+"Reconciler", map[string]bool{})
	if !ok {
		return src, kind + "Reconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one", nil
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p == patcherPkg || (imp.Name != nil && imp.Name.Name == "patcher") || (imp.Name == nil && path.Base(p) == "patcher") {
			return src, "the file imports a package named patcher already", nil
		}
	}
	recv, params := setup.Recv.List[0].Names, setup.Type.Params.List
	if len(recv) != 1 || len(params) != 1 || len(params[0].Names) != 1 || recv[0].Name == "_" || params[0].Names[0].Name == "_" {
		return src, "SetupWithManager's receiver or manager parameter has no name", nil
	}
	owner := strconv.Quote(strings.ToLower(kind))
	ast.Inspect(setup.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return true
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Named" {
			if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				owner = lit.Value
			}
		}
		return true
	})
	r, mgr := recv[0].Name, params[0].Names[0].Name
	comment := "// The manager's client carrying the status patchers' defaults: its API\n" +
		"\t// reader for fresh reads, and this controller's name as the field owner\n" +
		"\t// (statuspatch-gen init; README.md's \"Using it\").\n\t"
	forManager := fmt.Sprintf("patcher.ForManager(%s, patcher.WithFieldOwner(%s))", mgr, owner)
	var wired string
	switch set := clientAssign(setup.Body, r, via); {
	case set == nil:
		at := fset.Position(setup.Body.Lbrace).Offset + 1
		wired = src[:at] + "\n\t" + comment + r + ".Client = " + forManager + src[at:]
	case isGetClient(set.Rhs[0], mgr):
		// r.Client = mgr.GetClient(): the same client, with the defaults.
		at, from, to := fset.Position(set.Pos()).Offset, fset.Position(set.Rhs[0].Pos()).Offset, fset.Position(set.Rhs[0].End()).Offset
		wired = src[:at] + comment + src[at:from] + forManager + src[to:]
	default:
		return src, "SetupWithManager sets " + r + ".Client to " + types.ExprString(set.Rhs[0]) + " already", nil
	}
	fset = token.NewFileSet()
	f, err = parser.ParseFile(fset, rel, wired, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", "", fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	astutil.AddImport(fset, f, patcherPkg)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return "", "", fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	return b.String(), "", nil
}

// clientAssign is the statement recv.Client = x in body (or
// recv.<via...>.Client = x, through the embedded structs that hold it),
// or nil.
func clientAssign(body *ast.BlockStmt, recv string, via []string) *ast.AssignStmt {
	var found *ast.AssignStmt
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return found == nil
		}
		if sel, ok := as.Lhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "Client" && viaChain(sel.X, recv, via) {
			found = as
		}
		return found == nil
	})
	return found
}

// viaChain says whether x is recv, or recv followed by a tail of via's
// names (r.Base, r.Base.Inner where via is [Base Inner]): the promoted
// field's explicit paths.
func viaChain(x ast.Expr, recv string, via []string) bool {
	var names []string
	for {
		switch e := x.(type) {
		case *ast.Ident:
			if e.Name != recv || len(names) > len(via) {
				return false
			}
			for i, n := range names { // names are innermost first
				if via[len(names)-1-i] != n {
					return false
				}
			}
			return true
		case *ast.SelectorExpr:
			names = append(names, e.Sel.Name)
			x = e.X
		default:
			return false
		}
	}
}

// isGetClient reports whether e is mgr.GetClient().
func isGetClient(e ast.Expr, mgr string) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "GetClient" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == mgr
}

// setupWithManager is the method SetupWithManager of *typeName (or
// typeName) in f, nil if there is none.
func setupWithManager(f *ast.File, typeName string) *ast.FuncDecl {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "SetupWithManager" || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
			continue
		}
		t := fd.Recv.List[0].Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		if id, ok := t.(*ast.Ident); ok && id.Name == typeName {
			return fd
		}
	}
	return nil
}

// clientVia reports whether struct typeName of structs has a field Client
// of controller-runtime's client.Client (embedded or named), which
// *patcher.Client can be assigned to, or embeds by value a struct of
// structs that has one, to any depth; via is the embedded structs' names
// on the way, outermost first. Not through an embedded pointer, which may
// be nil when SetupWithManager runs.
func clientVia(structs map[string]declaredStruct, typeName string, seen map[string]bool) (via []string, ok bool) {
	st, found := structs[typeName]
	if !found || seen[typeName] {
		return nil, false
	}
	seen[typeName] = true
	isClient := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && st.client != "" && x.Name == st.client && sel.Sel.Name == "Client"
	}
	for _, fl := range st.typ.Fields.List {
		embedded := len(fl.Names) == 0
		named := len(fl.Names) == 1 && fl.Names[0].Name == "Client"
		if (embedded || named) && isClient(fl.Type) {
			return nil, true
		}
	}
	for _, fl := range st.typ.Fields.List {
		if id, isIdent := fl.Type.(*ast.Ident); isIdent && len(fl.Names) == 0 {
			if inner, ok := clientVia(structs, id.Name, seen); ok {
				return append([]string{id.Name}, inner...), true
			}
		}
	}
	return nil, false
}
