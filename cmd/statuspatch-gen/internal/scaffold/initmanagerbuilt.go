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
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// builtClient is what a place that builds a reconciler gives its client.
type builtClient int

const (
	// builtNone: no client (the literal leaves it out, and no assignment
	// after it sets it).
	builtNone builtClient = iota
	// builtManager: x.GetClient() itself; init writes
	// patcher.ForManager(x, ...) in its place when it wires there.
	builtManager
	// builtWired: patcher.ForManager or patcher.WithDefaults already.
	builtWired
	// builtOwn: a client of its own (a wrapper of x.GetClient(), a
	// namespaced or metrics client, another client), or a value init
	// cannot see the client of: init keeps it.
	builtOwn
)

// builtSite is one place a non-test Go file of the module builds the
// reconciler (a composite literal of <Kind>Reconciler), and where and to
// what its client is set there: the literal's field (Client: ...), or an
// assignment to the variable holding the literal, after it in the same
// block (rec.Client = ...).
type builtSite struct {
	rel      string
	at       string // file:line of the set (of the literal when none)
	how      builtClient
	val      string // the client's expression ("" when none)
	opaque   bool   // a value init cannot see the client of (a call, a literal without keys)
	mgr      string // the manager in mgr.GetClient(): in val, else "mgr"
	from, to int    // val's offsets in the file's text (builtManager)
	patcher  bool   // the file can import the runtime's patcher as patcher
	// fields are the literal's other keyed fields (not Client, Scheme or
	// the client's holder), for the starter test (builtFields)
	fields []builtField
}

// builtField is a field a builder of the reconciler sets besides its
// client: Recorder: mgr.GetEventRecorder("memcached-controller").
type builtField struct {
	name, at string
	// call: the value is a call of a method of the manager with literal
	// arguments, as text after "mgr." (GetEventRecorder("memcached-
	// controller")), which the starter test makes on its own manager
	call string
}

// builtSites lists the places the module's non-test Go files build
// typeName, a type of the package at ctrlPath (ctrlDir in the module),
// whose client lies at via: the table the wiring of a SetupWithManager
// that leaves the client to its builders reads.
func builtSites(texts *sourceTexts, repo, ctrlDir, typeName string, via []string) ([]builtSite, error) {
	ctrlPath := strings.TrimSuffix(repo, "/") + "/" + ctrlDir
	var sites []builtSite
	err := filepath.WalkDir(texts.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != texts.dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "vendor" || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		relOS, err := filepath.Rel(texts.dir, p)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(relOS)
		src, err := texts.text(rel)
		if err != nil {
			return err
		}
		sites = append(sites, fileSites(rel, src, path.Dir(rel) == ctrlDir, ctrlPath, typeName, via)...)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	return sites, nil
}

// fileSites is builtSites in one file (local: of the reconcilers' own
// package). A file that does not parse builds nothing (no build compiles
// it: a template under hack/, say), and is skipped.
func fileSites(rel, src string, local bool, ctrlPath, typeName string, via []string) []builtSite {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	pkgName := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == ctrlPath {
			pkgName = path.Base(p)
			if imp.Name != nil {
				pkgName = imp.Name.Name
			}
		}
	}
	if !local && pkgName == "" {
		return nil
	}
	isType := func(e ast.Expr) bool {
		switch t := e.(type) {
		case *ast.Ident:
			return local && t.Name == typeName
		case *ast.SelectorExpr:
			x, ok := t.X.(*ast.Ident)
			return ok && !local && x.Name == pkgName && t.Sel.Name == typeName
		}
		return false
	}
	later := laterSets(f, isType, via)
	var sites []builtSite
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isType(lit.Type) {
			return true
		}
		s := builtSite{rel: rel, at: fmt.Sprintf("%s:%d", rel, fset.Position(lit.Pos()).Line), mgr: "mgr", patcher: patcherName(f) == "patcher"}
		val, _, opaque := litClient(lit, via)
		if set, ok := later[lit]; ok && val == nil {
			val, opaque = set.Rhs[0], false
		}
		if val != nil {
			s.at = fmt.Sprintf("%s:%d", rel, fset.Position(val.Pos()).Line)
			s.val, s.opaque = types.ExprString(val), opaque
			s.from, s.to = fset.Position(val.Pos()).Offset, fset.Position(val.End()).Offset
			s.how = classify(val, opaque, &s.mgr)
		}
		s.fields = litFields(fset, rel, lit, via, s.mgr)
		sites = append(sites, s)
		return true
	})
	return sites
}

// litFields are lit's keyed fields other than Client, Scheme and the
// client's holder (via[0]); mgr names the manager.
func litFields(fset *token.FileSet, rel string, lit *ast.CompositeLit, via []string, mgr string) []builtField {
	var out []builtField
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue // a literal without keys: its fields are not named
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil || key.Name == "Client" || key.Name == "Scheme" || len(via) > 0 && key.Name == via[0] {
			continue
		}
		f := builtField{name: key.Name, at: fmt.Sprintf("%s:%d", rel, fset.Position(kv.Pos()).Line)}
		if call, ok := kv.Value.(*ast.CallExpr); ok && !call.Ellipsis.IsValid() {
			literal := func(a ast.Expr) bool { _, ok := a.(*ast.BasicLit); return ok }
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && isIdent(sel.X, mgr) && !slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return !literal(a) }) {
				f.call = strings.TrimPrefix(types.ExprString(call), mgr+".")
			}
		}
		out = append(out, f)
	}
	return out
}

// classify is what val, a builder's client, is (mgr: the manager it
// names, when it names one).
func classify(val ast.Expr, opaque bool, mgr *string) builtClient {
	how := builtOwn
	ast.Inspect(val, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "patcher" && (sel.Sel.Name == "ForManager" || sel.Sel.Name == "WithDefaults")) {
			how = builtWired
			return false
		}
		if x, ok := sel.X.(*ast.Ident); ok && sel.Sel.Name == "GetClient" && len(c.Args) == 0 {
			*mgr = x.Name
			if !opaque && ast.Node(ast.Unparen(val)) == ast.Node(c) && how != builtWired {
				how = builtManager
			}
		}
		return true
	})
	return how
}

// laterSets maps each literal of the reconciler held by a variable
// (rec := &T{...}, rec = T{...}, var rec = &T{...}) to the first
// assignment of that variable's client after it in the same block
// (rec.Client = x, rec.Base.Client = x).
func laterSets(f *ast.File, isType func(ast.Expr) bool, via []string) map[*ast.CompositeLit]*ast.AssignStmt {
	later := map[*ast.CompositeLit]*ast.AssignStmt{}
	held := func(stmt ast.Stmt) (string, *ast.CompositeLit) {
		var lhs, rhs []ast.Expr
		switch s := stmt.(type) {
		case *ast.AssignStmt:
			lhs, rhs = s.Lhs, s.Rhs
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR && len(g.Specs) == 1 {
				if vs := g.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 {
					lhs, rhs = []ast.Expr{vs.Names[0]}, vs.Values
				}
			}
		}
		if len(lhs) != 1 || len(rhs) != 1 {
			return "", nil
		}
		id, ok := lhs[0].(*ast.Ident)
		e := ast.Unparen(rhs[0])
		if u, isAddr := e.(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			e = u.X
		}
		lit, isLit := e.(*ast.CompositeLit)
		if !ok || !isLit || !isType(lit.Type) {
			return "", nil
		}
		return id.Name, lit
	}
	ast.Inspect(f, func(n ast.Node) bool {
		b, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i, stmt := range b.List {
			name, lit := held(stmt)
			if lit == nil {
				continue
			}
			for _, next := range b.List[i+1:] {
				ast.Inspect(next, func(n ast.Node) bool {
					as, ok := n.(*ast.AssignStmt)
					if !ok || later[lit] != nil || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
						return later[lit] == nil
					}
					if sel, ok := as.Lhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "Client" && viaChain(sel.X, name, via) {
						later[lit] = as
					}
					return later[lit] == nil
				})
			}
		}
		return true
	})
	return later
}

// wireSites writes patcher.ForManager(<mgr>, patcher.WithFieldOwner(owner))
// in place of the builders' mgr.GetClient() (sites of builtManager whose
// file can import the patcher package), importing it.
func wireSites(texts *sourceTexts, sites []builtSite, owner string) error {
	byFile := map[string]textEdits{}
	var order []string
	for _, s := range sites {
		if s.how != builtManager || !s.patcher {
			continue
		}
		if _, ok := byFile[s.rel]; !ok {
			order = append(order, s.rel)
		}
		byFile[s.rel] = append(byFile[s.rel], textEdit{s.from, s.to, fmt.Sprintf("patcher.ForManager(%s, patcher.WithFieldOwner(%s))", s.mgr, owner)})
	}
	for _, rel := range order {
		src, err := texts.text(rel)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, byFile[rel].apply(src), parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
		}
		astutil.AddImport(fset, f, patcherPkg)
		var b bytes.Buffer
		if err := format.Node(&b, fset, f); err != nil {
			return fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
		}
		texts.set(rel, b.String())
	}
	return nil
}
