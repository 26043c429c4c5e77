package exportdata

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// typeCheck parses and type-checks the plan's source packages, in
// dependency order, importing the others from their export data, and
// returns them as go/packages would (syntax, types, type information),
// each one's Imports holding only its source-loaded imports: the others
// have no syntax to analyze, and no facts (see planLoad). A package with
// parse or type errors is an error wrapping ErrDecline: the full checker
// reports them as it always has.
func typeCheck(plan *loadPlan) (map[string]*packages.Package, error) {
	fset := token.NewFileSet()
	files, err := parseAll(fset, plan)
	if err != nil {
		return nil, err
	}
	arch := os.Getenv("GOARCH")
	if arch == "" {
		arch = runtime.GOARCH
	}
	sizes := types.SizesFor("gc", arch)
	// One map of every package loaded so far, by path, source-checked ones
	// included, as unitchecker shares one between the imports of a unit:
	// export data read later refers to the same *types.Package.
	loaded := map[string]*types.Package{}
	fromExport := func(path string) (*types.Package, error) {
		if p := loaded[path]; p != nil && p.Complete() {
			return p, nil
		}
		file, ok := plan.export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("export data of %s: %w", path, err)
		}
		defer f.Close()
		// The build cache's export data files (go list -export) are the
		// compiler's archives, from which NewReader extracts the export
		// data (Read alone refuses them with Go 1.26).
		r, err := gcexportdata.NewReader(f) //nolint:staticcheck // SA1019: go list -export hands out archives
		if err != nil {
			return nil, fmt.Errorf("export data of %s: %w", path, err)
		}
		p, err := gcexportdata.Read(r, fset, loaded, path)
		if err != nil {
			return nil, fmt.Errorf("export data of %s: %w", path, err)
		}
		return p, nil
	}
	out := map[string]*packages.Package{}
	for _, path := range plan.source {
		lp := plan.pkgs[path]
		pkg := &packages.Package{
			ID: path, Name: lp.Name, PkgPath: path, Fset: fset,
			GoFiles: lp.goFiles(), Syntax: files[path], TypesSizes: sizes,
			Imports: map[string]*packages.Package{},
		}
		pkg.CompiledGoFiles = pkg.GoFiles
		if m := lp.Module; m != nil {
			pkg.Module = &packages.Module{Path: m.Path, Version: m.Version, Main: m.Main, Dir: m.Dir, GoMod: m.GoMod, GoVersion: m.GoVersion}
		}
		imp := importer(func(ipath string) (*types.Package, error) {
			if ipath == "unsafe" {
				return types.Unsafe, nil
			}
			if to, ok := lp.ImportMap[ipath]; ok {
				ipath = to
			}
			if dep := out[ipath]; dep != nil {
				return dep.Types, nil
			}
			if plan.inSrc[ipath] {
				return nil, fmt.Errorf("%s is not type-checked before %s", ipath, path)
			}
			return fromExport(ipath)
		})
		conf := &types.Config{Importer: imp, Sizes: sizes}
		if pkg.Module != nil && pkg.Module.GoVersion != "" {
			conf.GoVersion = "go" + pkg.Module.GoVersion
		}
		var typeErrs []error
		conf.Error = func(err error) { typeErrs = append(typeErrs, err) }
		pkg.TypesInfo = &types.Info{
			Types:        map[ast.Expr]types.TypeAndValue{},
			Defs:         map[*ast.Ident]types.Object{},
			Uses:         map[*ast.Ident]types.Object{},
			Implicits:    map[ast.Node]types.Object{},
			Instances:    map[*ast.Ident]types.Instance{},
			Scopes:       map[ast.Node]*types.Scope{},
			Selections:   map[*ast.SelectorExpr]*types.Selection{},
			FileVersions: map[*ast.File]string{},
		}
		pkg.Types, _ = conf.Check(path, fset, pkg.Syntax, pkg.TypesInfo)
		if len(typeErrs) > 0 {
			return nil, fmt.Errorf("%w: %s: %w", ErrDecline, path, typeErrs[0])
		}
		for _, ipath := range lp.Imports {
			if dep := out[ipath]; dep != nil {
				pkg.Imports[ipath] = dep
			}
		}
		loaded[path] = pkg.Types
		out[path] = pkg
	}
	return out, nil
}

type importer func(path string) (*types.Package, error)

func (f importer) Import(path string) (*types.Package, error) { return f(path) }

// parseAll parses the source packages' files, on every processor.
func parseAll(fset *token.FileSet, plan *loadPlan) (map[string][]*ast.File, error) {
	type job struct {
		pkg  string
		i    int
		name string
	}
	files := map[string][]*ast.File{}
	var jobs []job
	for _, path := range plan.source {
		names := plan.pkgs[path].goFiles()
		files[path] = make([]*ast.File, len(names))
		for i, name := range names {
			jobs = append(jobs, job{path, i, name})
		}
	}
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan job)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range next {
				src, err := os.ReadFile(j.name)
				var f *ast.File
				if err == nil {
					f, err = parser.ParseFile(fset, j.name, src, parser.AllErrors|parser.ParseComments)
				}
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("%w: %w", ErrDecline, err)
				}
				files[j.pkg][j.i] = f
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	return files, first
}
