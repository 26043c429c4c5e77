package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Two ways a run could lose output without a word, both errors:
//
//   - it finds no kinds at all (paths= points at the wrong packages), unless
//     allowNoKinds=true or a type or package was opted out explicitly;
//   - a kind that has a patcher in the existing generated file would lose it
//     (its Status field or a marker went away), unless it is opted out with
//     +statuspatch:generate=false. A deleted type loses its patcher freely:
//     nothing can call it any more.

// noKindsError is the error for a run that found no kinds, or nil when that
// is deliberate.
func noKindsError(roots []*loader.Package, results []*pkgKinds) error {
	for _, res := range results {
		for _, s := range res.skipped {
			if s.optedOut {
				return nil
			}
		}
	}
	if len(roots) == 0 {
		return fmt.Errorf("paths= matched no packages; pass allowNoKinds=true if that is expected")
	}
	var paths []string
	for _, r := range roots {
		paths = append(paths, r.PkgPath)
	}
	if len(paths) > 3 {
		paths = append(paths[:3], fmt.Sprintf("and %d more", len(paths)-3))
	}
	return fmt.Errorf("%s: no kinds (root types with +%s=true, +%s and a Status field); check paths=, or pass allowNoKinds=true if that is expected",
		strings.Join(paths, ", "), objectRootMarkerName, statusSubresourceMarker)
}

// prior is a patcher in an existing generated file.
type prior struct {
	pkgPath string // the kind's package; "" for the file's own package
	kind    string
}

// checkVanished compares the existing generated files with this run's kinds.
func checkVanished(out *output, results []*pkgKinds) error {
	var errs errorList
	switch out.mode {
	case modeBeside:
		for _, res := range results {
			dir, err := pkgDir(res.pkg)
			if err != nil {
				continue
			}
			path := filepath.Join(dir, fileName)
			if !isOurs(path) {
				continue
			}
			for _, p := range priorPatchers(path) {
				if p.pkgPath == "" {
					errs.add(vanished(res, path, p.kind))
				}
			}
		}
	case modeDir:
		abs, err := filepath.Abs(out.dir)
		if err != nil {
			return nil
		}
		path := filepath.Join(abs, fileName)
		if !isOurs(path) {
			return nil
		}
		byPath := make(map[string]*pkgKinds)
		for _, res := range results {
			byPath[res.pkg.PkgPath] = res
		}
		for _, p := range priorPatchers(path) {
			if res := byPath[p.pkgPath]; res != nil {
				errs.add(vanished(res, path, p.kind))
			}
		}
	}
	return errs.err()
}

// vanished returns an error when kind, which has a patcher in path, gets
// none in this run without being opted out.
func vanished(res *pkgKinds, path, kind string) error {
	for _, k := range res.kinds {
		if k.name() == kind {
			return nil
		}
	}
	s, declared := res.skipped[kind]
	if !declared || s.optedOut {
		return nil
	}
	res.pkg.NeedTypesInfo() // sets Fset
	return errorAt(res.pkg.Fset, s.pos, "%s would lose its %sStatusPatcher (in %s): %s; restore that, or add +%s=false to %s to drop the patcher",
		kind, kind, relPath(path), s.why, generateMarkerName, kind)
}

// priorPatchers lists the patchers of a generated file: the types declared
// as struct{ p *patcher.Patcher[*Kind] } (or *pkg.Kind). A file that does not
// parse lists none.
func priorPatchers(path string) []prior {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	imports := make(map[string]string) // local name -> path
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := p[strings.LastIndexByte(p, '/')+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imports[name] = p
	}
	var out []prior
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || !strings.HasSuffix(ts.Name.Name, "StatusPatcher") || len(st.Fields.List) != 1 {
				continue
			}
			pkgPath, kind := patchedKind(st.Fields.List[0].Type, imports)
			if kind+"StatusPatcher" == ts.Name.Name {
				out = append(out, prior{pkgPath: pkgPath, kind: kind})
			}
		}
	}
	return out
}

// patchedKind reads *patcher.Patcher[*Kind] or *patcher.Patcher[*pkg.Kind].
func patchedKind(t ast.Expr, imports map[string]string) (pkgPath, kind string) {
	star, ok := t.(*ast.StarExpr)
	if !ok {
		return "", ""
	}
	idx, ok := star.X.(*ast.IndexExpr)
	if !ok {
		return "", ""
	}
	arg, ok := idx.Index.(*ast.StarExpr)
	if !ok {
		return "", ""
	}
	switch x := arg.X.(type) {
	case *ast.Ident:
		return "", x.Name
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return imports[id.Name], x.Sel.Name
		}
	}
	return "", ""
}
