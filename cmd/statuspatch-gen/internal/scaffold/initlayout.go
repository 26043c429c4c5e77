package scaffold

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// byHandDoc is the by-hand route, for what init cannot do.
const byHandDoc = "docs/kubebuilder.md#by-hand"

// stepsDoc is the adoption's steps, which init's "next:" line points to;
// changesDoc is what init changes and why, its notes in detail.
const (
	stepsDoc   = "docs/kubebuilder.md#steps"
	changesDoc = "docs/kubebuilder.md#what-init-changes"
)

// layoutFlags are init's flags that say where things are, for projects
// whose layout init cannot infer (no PROJECT file, other folders): each
// overrides what init would infer. Paths are relative to the project,
// slash-separated.
type layoutFlags struct {
	api         []string // the folders of the API packages (-api)
	controllers []string // the folders of the reconcilers (-controllers)
	output      string   // the generated patchers' package (-output)
	// project: PROJECT must be there (kubebuilder's plugin, which runs
	// in a kubebuilder project only).
	project bool
}

// projectLayout is where init finds the project's parts and puts its own,
// from PROJECT's layout (kubebuilder v3 or v4), the tree and the flags.
type projectLayout struct {
	// apiDirs are the folders holding the API packages (api, apis),
	// generate-patchers' paths= (./api/...).
	apiDirs []string
	// ctrlRoot is the reconcilers' folder of a kubebuilder layout
	// (internal/controller in v4, controllers in v3), one folder per group
	// in a multigroup project; "" without PROJECT.
	ctrlRoot string
	// ctrlDirs are the reconcilers' folders without PROJECT.
	ctrlDirs []string
	// output is the generated patchers' package (internal/patchers).
	output string
	// source names where the layout came from, for notes.
	source string
}

// The folders init looks in when PROJECT or a flag does not say.
var (
	apiCandidates  = []string{"api", "apis", "pkg/apis", "pkg/api"}
	ctrlCandidates = []string{"internal/controller", "internal/controllers", "controllers", "pkg/controller", "pkg/controllers"}
)

// splitList splits a flag's comma-separated folders, cleaned.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.Trim(path.Clean(filepath.ToSlash(strings.TrimSpace(f))), "/"); f != "" && f != "." {
			out = append(out, strings.TrimPrefix(f, "./"))
		}
	}
	return out
}

// isDir reports whether rel is a folder of the project.
func isDir(dir, rel string) bool {
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && st.IsDir()
}

// existing are the candidates that are folders of the project.
func existing(dir string, candidates []string) []string {
	var out []string
	for _, c := range candidates {
		if isDir(dir, c) {
			out = append(out, c)
		}
	}
	return out
}

// generatePaths is generate-patchers' paths= for the API folders.
func (l *projectLayout) generatePaths() string {
	var ps []string
	for _, d := range l.apiDirs {
		ps = append(ps, "./"+d+"/...")
	}
	if len(ps) == 1 {
		return ps[0]
	}
	return "{" + strings.Join(ps, ",") + "}"
}

// controllerDir is the folder of resource r's reconciler.
func (p *kbProject) controllerDir(r kbResource) string {
	if r.ctrlDir != "" || p.layout.ctrlRoot == "" {
		return r.ctrlDir
	}
	if p.MultiGroup {
		return path.Join(p.layout.ctrlRoot, r.Group)
	}
	return p.layout.ctrlRoot
}

// suiteDirs are the folders where kubebuilder's controller suites are.
func (p *kbProject) suiteDirs() []string {
	if p.layout.ctrlRoot != "" {
		return []string{p.layout.ctrlRoot, p.layout.ctrlRoot + "/*"}
	}
	return p.layout.ctrlDirs
}

// upTo is the relative path from folder rel of the project to target,
// a folder of the project: ../../config/crd from internal/controller.
func upTo(rel, target string) string {
	return strings.Repeat("../", strings.Count(rel, "/")+1) + target
}

// layoutFor returns the layout of the project in dir with PROJECT's
// layout kbLayout ("" without PROJECT), and the flags.
func layoutFor(dir, kbLayout string, multiGroup bool, fl layoutFlags) (projectLayout, error) {
	l := projectLayout{output: "internal/patchers", source: "PROJECT"}
	switch kbLayout {
	case kubebuilderV4:
		l.ctrlRoot, l.apiDirs = "internal/controller", []string{"api"}
	case kubebuilderV3:
		// go/v3 scaffolds api/ in a single-group project, apis/ in a
		// multigroup one; either may have been moved to the other.
		l.ctrlRoot, l.apiDirs = "controllers", []string{"api"}
		if multiGroup || !isDir(dir, "api") && isDir(dir, "apis") {
			l.apiDirs = []string{"apis"}
		}
	default:
		l.source = "the tree"
		l.apiDirs = existing(dir, apiCandidates)
		l.ctrlDirs = existing(dir, ctrlCandidates)
	}
	if len(fl.api) > 0 {
		l.apiDirs = fl.api
	}
	if len(fl.controllers) > 0 {
		l.ctrlRoot, l.ctrlDirs = "", fl.controllers
	}
	if fl.output != "" {
		l.output = fl.output
	}
	// the folders flags name are there (a kubebuilder layout's are taken
	// as PROJECT declares them)
	for _, d := range append(append([]string{}, fl.api...), fl.controllers...) {
		if !isDir(dir, d) {
			return l, fmt.Errorf("%s: no such folder (-api and -controllers name folders of the project, relative to it)", filepath.Join(dir, filepath.FromSlash(d)))
		}
	}
	if len(l.apiDirs) == 0 {
		return l, fmt.Errorf("%s: no PROJECT file, and none of %s is a folder there: pass -api with the folder(s) of your API packages (and -controllers, -output), or adopt by hand (%s)",
			dir, strings.Join(apiCandidates, ", "), byHandDoc)
	}
	return l, nil
}

// projectResources finds, without PROJECT, the kinds in the API folders
// (types marked +kubebuilder:object:root=true, their group from the
// package's +groupName, their version the folder's name) and their
// reconcilers (<Kind>Reconciler) in the controllers' folders, as PROJECT
// would list them.
func projectResources(dir, module string, l projectLayout) ([]kbResource, error) {
	var res []kbResource
	for _, api := range l.apiDirs {
		err := filepath.WalkDir(filepath.Join(dir, filepath.FromSlash(api)), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			kinds, err := packageKinds(p)
			if err != nil {
				return err
			}
			for _, k := range kinds {
				res = append(res, kbResource{
					API: &struct {
						Namespaced bool `json:"namespaced"`
					}{Namespaced: k.namespaced},
					Group: k.group, Version: filepath.Base(p), Kind: k.name,
					Path: path.Join(module, filepath.ToSlash(rel)),
				})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
	}
	for i := range res {
		for _, c := range l.ctrlDirs {
			_, structs, err := packageStructs(filepath.Join(dir, filepath.FromSlash(c)))
			if err != nil {
				return nil, err
			}
			if _, ok := structs[res[i].Kind+"Reconciler"]; ok {
				res[i].Controller, res[i].ctrlDir = true, c
				break
			}
		}
	}
	return res, nil
}

// apiKind is a kind packageKinds found.
type apiKind struct {
	name, group string
	namespaced  bool
}

// packageKinds parses the non-test Go files of the folder dir and returns
// its kinds: struct types marked +kubebuilder:object:root=true with a
// Status field (not their List types, which have none).
func packageKinds(dir string) ([]apiKind, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var kinds []apiKind
	group := ""
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if g, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(c.Text, "//")), "+groupName="); ok {
					group, _, _ = strings.Cut(g, ".")
				}
			}
		}
		prev := f.Name.End()
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			from := prev
			prev = d.End()
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				// a type's markers are the comments above it, as
				// controller-tools reads them: its doc comment and the
				// groups before it, separated by blank lines
				doc := markerComments(f, from, ts.Pos())
				if len(gd.Specs) > 1 {
					doc = ts.Doc
				}
				if !ok || !hasMarker(doc, "+kubebuilder:object:root=true") || !slices.ContainsFunc(st.Fields.List, func(f *ast.Field) bool {
					return slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return n.Name == "Status" })
				}) {
					continue
				}
				kinds = append(kinds, apiKind{name: ts.Name.Name, namespaced: !hasMarker(doc, "+kubebuilder:resource:scope=Cluster")})
			}
		}
	}
	for i := range kinds {
		kinds[i].group = group
	}
	return kinds, nil
}

// markerComments are the comments of f between from and to, as one group.
func markerComments(f *ast.File, from, to token.Pos) *ast.CommentGroup {
	g := &ast.CommentGroup{}
	for _, cg := range f.Comments {
		if cg.Pos() > from && cg.End() < to {
			g.List = append(g.List, cg.List...)
		}
	}
	return g
}

// hasMarker reports whether a doc comment has a line starting with
// marker (a +kubebuilder:resource line with other options too).
func hasMarker(doc *ast.CommentGroup, marker string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if text == marker || strings.HasPrefix(marker, "+kubebuilder:resource:") && strings.HasPrefix(text, "+kubebuilder:resource:") && strings.Contains(text, strings.TrimPrefix(marker, "+kubebuilder:resource:")) {
			return true
		}
	}
	return false
}

// modulePath is the module path in dir/go.mod.
func modulePath(dir string) (string, error) {
	file := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: no such file: statuspatch-gen init runs in a Go module's root", file)
	}
	if err != nil {
		return "", fmt.Errorf("statuspatch-gen init: %w", err)
	}
	if m := modfile.ModulePath(data); m != "" {
		return m, nil
	}
	return "", fmt.Errorf("%s:1: no module line", file)
}
