package scaffold

import (
	"bytes"
	"encoding/json"
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
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// The PROJECT layouts statuspatch-gen init knows.
const (
	kubebuilderV4 = "go.kubebuilder.io/v4"
	kubebuilderV3 = "go.kubebuilder.io/v3"
)

// kbProject is the part of kubebuilder's PROJECT file init reads, or what
// init infers in its place (projectResources), with the layout.
type kbProject struct {
	Layout     json.RawMessage `json:"layout"` // a list; a string in old files
	MultiGroup bool            `json:"multigroup"`
	Repo       string          `json:"repo"` // the module path
	Resources  []kbResource    `json:"resources"`

	layout projectLayout
	// builtins are the calls on objects of built-in kinds in the code
	// make test compiles (builtinKindUses): the suites stay on envtest,
	// and the starter test asks for the full API.
	builtins []builtinUse
	// wired: the Go files init's manager wiring rewrites, by
	// project-relative path, as init leaves them (the lines its notes name)
	wired map[string]string
}

type kbResource struct {
	API *struct {
		Namespaced bool `json:"namespaced"`
	} `json:"api"`
	Controller bool `json:"controller"`
	// Controllers are a kind's named controllers (kubebuilder v4.13+'s
	// create api --controller-name, more than one per kind).
	Controllers []struct {
		Name string `json:"name"`
	} `json:"controllers"`
	// Webhooks are the kind's webhooks (defaulting, validation,
	// conversion); null or absent without.
	Webhooks json.RawMessage `json:"webhooks"`
	External bool            `json:"external"`
	Core     bool            `json:"core"`
	Group    string          `json:"group"`
	Version  string          `json:"version"`
	Kind     string          `json:"kind"`
	Path     string          `json:"path"`

	// ctrlDir is the folder of the kind's reconciler, found without PROJECT.
	ctrlDir string
}

// readProject reads the project in dir with init's default layout.
func readProject(dir string) (*kbProject, error) {
	return loadProject(dir, layoutFlags{})
}

// loadProject reads dir/PROJECT, a kubebuilder v3 or v4 project's, or
// without one infers the same from the tree and the flags; it refuses
// what it cannot read: "path:line: what is wrong", and what to do.
func loadProject(dir string, fl layoutFlags) (*kbProject, error) {
	file := filepath.Join(dir, "PROJECT")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) && fl.project {
		return nil, fmt.Errorf("%s: no such file: kubebuilder's plugin runs in a kubebuilder project (statuspatch-gen init adopts one without)", file)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return inferProject(dir, fl)
	}
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	var p kbProject
	if err := yaml.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: not a kubebuilder PROJECT file: %w", file, err)
	}
	var layouts []string
	if len(p.Layout) > 0 {
		var one string
		if json.Unmarshal(p.Layout, &layouts) != nil && json.Unmarshal(p.Layout, &one) == nil {
			layouts = []string{one}
		}
	}
	kb := ""
	for _, l := range []string{kubebuilderV4, kubebuilderV3} {
		if slices.Contains(layouts, l) {
			kb = l
			break
		}
	}
	if kb == "" {
		return nil, fmt.Errorf("%s:%d: layout is %q, not %s or %s: statuspatch-gen init knows kubebuilder v3 and v4 projects; pass -api, -controllers and -output to say where things are (or move PROJECT aside), or adopt by hand (%s)", file, lineOf(data, "layout:"), layouts, kubebuilderV4, kubebuilderV3, byHandDoc)
	}
	if p.layout, err = layoutFor(dir, kb, p.MultiGroup, fl); err != nil {
		return nil, err
	}
	if len(fl.controllers) > 0 {
		// the reconcilers are where the flag says, whatever the layout
		res, err := projectResources(dir, p.Repo, projectLayout{ctrlDirs: fl.controllers})
		if err != nil {
			return nil, err
		}
		for i := range p.Resources {
			for _, r := range res {
				if r.Kind == p.Resources[i].Kind {
					p.Resources[i].ctrlDir = r.ctrlDir
				}
			}
		}
	}
	return &p, needMakefile(dir)
}

// inferProject is loadProject without a PROJECT file: the module path from
// go.mod, the kinds from the API folders, their reconcilers from the
// controllers' folders.
func inferProject(dir string, fl layoutFlags) (*kbProject, error) {
	module, err := modulePath(dir)
	if err != nil {
		return nil, err
	}
	l, err := layoutFor(dir, "", false, fl)
	if err != nil {
		return nil, err
	}
	res, err := projectResources(dir, module, l)
	if err != nil {
		return nil, err
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s: no PROJECT file, and no kind (a type marked +kubebuilder:object:root=true with a Status field) in %s: pass -api with the folder(s) of your API packages, or adopt by hand (%s)",
			dir, strings.Join(l.apiDirs, ", "), byHandDoc)
	}
	return &kbProject{Repo: module, Resources: res, layout: l}, needMakefile(dir)
}

// needMakefile refuses a project without a Makefile.
func needMakefile(dir string) error {
	if !fileExists(filepath.Join(dir, "Makefile")) {
		return fmt.Errorf("%s: no such file: statuspatch-gen init adds its targets to the project's Makefile; adopt by hand without one (%s)", filepath.Join(dir, "Makefile"), byHandDoc)
	}
	return nil
}

// lineOf is the 1-based line of the first line starting with prefix, or 1.
func lineOf(data []byte, prefix string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(prefix)) {
			return i + 1
		}
	}
	return 1
}

// starterKind is what the starter test needs of the first kind with a
// controller.
type starterKind struct {
	Package, Kind, Alias, ImportPath, CRDDir, Namespace string
	HasScheme                                           bool
	// HasStatus: the kind's type (in the API package's folder, found from
	// PROJECT's repo and path) has a Status field, which the test compares.
	HasStatus bool
	// FullAPI: the code make test compiles uses built-in kinds (Builtin,
	// the first use), so the test starts testenv.WithFullAPI().
	FullAPI bool
	Builtin string
	// Spec are the statements that set the spec fields the kind's CRD
	// requires (starterSpec), and the packages of other modules they name.
	Spec        []string
	SpecImports []specImport
	// ModImports: those of SpecImports in the project's module, which the
	// test imports beside its API package
	ModImports []specImport
	// Setup: what the reconciler's SetupWithManager sets besides its
	// Client, or registers (setupNeeds), which the test then runs for its
	// reconcilers (starterSetUp<Kind>), calling it with SetupArgs; none
	// when it does neither. SetupTODO: the same, when the test cannot call
	// it (its parameters are others), for a TODO where the test builds
	// the reconciler.
	Setup     []string
	SetupArgs string
	SetupTODO string
	// Built: the fields the reconciler's builder (cmd/main.go) sets from
	// the manager, which starterSetUp<Kind> sets from its own; BuiltTODO:
	// the others, "file:line sets Name", for a TODO
	Built     []starterField
	BuiltTODO string
	// Indexes: the functions of the package registering a field index
	// outside SetupWithManager, which starterSetUp<Kind> calls first
	Indexes []starterIndex
}

// starterTest returns the starter test's path and text for the project's
// first kind with a controller, or a note saying why there is none; with
// both, the note says the test asks for the full API, and why.
func starterTest(dir string, p *kbProject) (rel, content, note string, err error) {
	var r *kbResource
	for i := range p.Resources {
		res := &p.Resources[i]
		if res.API != nil && (res.Controller || len(res.Controllers) > 0) && !res.External && !res.Core && res.Kind != "" && res.Path != "" {
			r = res
			break
		}
	}
	if r == nil && p.layout.ctrlRoot == "" {
		if len(p.layout.ctrlDirs) == 0 {
			return "", "", fmt.Sprintf("statuspatch-gen init: no starter test, and no reconciler wired to patcher.ForManager: no type <Kind>Reconciler for a kind of %s in %s; pass -controllers with the folder(s) of your reconcilers", strings.Join(p.layout.apiDirs, ", "), orNone(p.layout.ctrlDirs)), nil
		}
		// The folders are there (found or given): passing them again says
		// the same. Init finds a reconciler by its type's name alone.
		return "", "", fmt.Sprintf("statuspatch-gen init: no starter test, and no reconciler wired to patcher.ForManager: no type <Kind>Reconciler for a kind of %s in %s (init knows a reconciler by that name alone: a type named Reconciler, one per package, is not one): wire patcher.ForManager in your reconcilers' setup and write a decides-once test by hand (%s)", strings.Join(p.layout.apiDirs, ", "), strings.Join(p.layout.ctrlDirs, ", "), byHandDoc), nil
	}
	if r == nil {
		return "", "", "statuspatch-gen init: no starter test: PROJECT has no kind with an API and a controller (kubebuilder create api --resource --controller)", nil
	}
	ctrlDir := p.controllerDir(*r)
	if ctrlDir == "" {
		return "", "", fmt.Sprintf("statuspatch-gen init: no starter test: no folder of the controllers (-controllers) declares %sReconciler", r.Kind), nil
	}
	crdDir := upTo(ctrlDir, "config/crd")
	pkg, fields, err := reconcilerFields(filepath.Join(dir, filepath.FromSlash(ctrlDir)), r.Kind+"Reconciler")
	if err != nil {
		return "", "", "", err
	}
	if pkg == "" || !slices.Contains(fields, "Client") {
		return "", "", fmt.Sprintf("statuspatch-gen init: no starter test: %s has no type %sReconciler with a Client field", ctrlDir, r.Kind), nil
	}
	var specNotes []string
	k := starterKind{
		Package:    pkg,
		Kind:       r.Kind,
		Alias:      importAlias(r.Group, r.Version),
		ImportPath: r.Path,
		CRDDir:     crdDir,
		HasScheme:  slices.Contains(fields, "Scheme"),
	}
	if rel, ok := strings.CutPrefix(r.Path, p.Repo+"/"); ok && p.Repo != "" {
		_, kindFields, err := reconcilerFields(filepath.Join(dir, filepath.FromSlash(rel)), r.Kind)
		if err != nil {
			return "", "", "", err
		}
		k.HasStatus = slices.Contains(kindFields, "Status")
		if k.Spec, specNotes, k.SpecImports, err = starterSpec(starterSpecRequest{dir: dir, apiDir: rel, crdDir: path.Join(ctrlDir, crdDir), test: path.Join(ctrlDir, strings.ToLower(r.Kind)+"_testenv_test.go"), alias: k.Alias, res: *r}); err != nil {
			return "", "", "", err
		}
	}
	k.ModImports = slices.DeleteFunc(slices.Clone(k.SpecImports), func(i specImport) bool { return p.Repo == "" || !strings.HasPrefix(i.Path, p.Repo+"/") })
	k.SpecImports = slices.DeleteFunc(k.SpecImports, func(i specImport) bool { return slices.Contains(k.ModImports, i) })
	needs, args, indexes, err := setupNeeds(dir, ctrlDir, r.Kind+"Reconciler", p.wired)
	if err != nil {
		return "", "", "", err
	}
	if args != "" {
		for _, ix := range indexes {
			k.Indexes = append(k.Indexes, starterIndex{Name: ix.name, Args: ix.args, Errs: ix.errs})
		}
	}
	rel = path.Join(ctrlDir, strings.ToLower(r.Kind)+"_testenv_test.go")
	built, err := builtFields(dir, p, ctrlDir, r.Kind+"Reconciler")
	if err != nil {
		return "", "", "", err
	}
	var todo []string
	for _, f := range built {
		switch {
		case f.call != "" && args != "":
			k.Built = append(k.Built, starterField{Name: f.name, Call: f.call})
			needs = append(needs, fmt.Sprintf("%s builds it with %s: mgr.%s, which the test sets from its manager", f.at, f.name, f.call))
		default:
			todo = append(todo, f.at+" sets "+f.name)
		}
	}
	switch {
	case len(needs) > 0 && args != "":
		k.Setup, k.SetupArgs = needs, args
	case len(needs) > 0:
		k.SetupTODO = strings.Join(needs, ", and ")
		specNotes = append(specNotes, setupNote(r.Kind, rel, needs))
	}
	if len(todo) > 0 {
		k.BuiltTODO = strings.Join(todo, ", ")
		specNotes = append(specNotes, fmt.Sprintf("statuspatch-gen init: %s: %s, which the starter test does not set on %sReconciler: set the same where the test builds it (a TODO(user) there)", rel, k.BuiltTODO, r.Kind))
	}
	if r.API.Namespaced {
		k.Namespace = "default"
	}
	if len(p.builtins) > 0 {
		k.FullAPI, k.Builtin = true, p.builtins[0].String()
	}
	text, err := k.render()
	if err != nil {
		return "", "", "", err
	}
	rel = path.Join(ctrlDir, strings.ToLower(r.Kind)+"_testenv_test.go")
	if k.FullAPI {
		note = fmt.Sprintf("statuspatch-gen init: %s: the starter test starts testenv.WithFullAPI() (a kube-apiserver), as the code %s: %s", rel, builtinWhat(p.builtins), builtinList(p.builtins))
	}
	return rel, text, strings.Join(slices.DeleteFunc(append([]string{note}, specNotes...), func(n string) bool { return n == "" }), "\n"), nil
}

// reconcilerFields parses the non-test Go files of dir and returns their
// package name and the field names of struct type name (an embedded
// client.Client counts as Client); no package name when the type is absent.
func reconcilerFields(dir, name string) (pkg string, fields []string, err error) {
	pkg, structs, err := packageStructs(dir)
	st, ok := structs[name]
	if err != nil || !ok {
		return "", nil, err
	}
	for _, fl := range st.typ.Fields.List {
		for _, id := range fl.Names {
			fields = append(fields, id.Name)
		}
		if len(fl.Names) == 0 {
			if sel, ok := fl.Type.(*ast.SelectorExpr); ok {
				fields = append(fields, sel.Sel.Name)
			}
		}
	}
	return pkg, fields, nil
}

// declaredStruct is a struct type declared at the top level of a package,
// the file (its base name) that declares it, and the name that file
// imports controller-runtime's client package under ("" if it does not).
type declaredStruct struct {
	typ    *ast.StructType
	file   string
	client string
}

// addFileStructs adds the struct types f (the file named n) declares at
// the top level to structs, the first declaration of a name kept.
func addFileStructs(structs map[string]declaredStruct, f *ast.File, n string) {
	client := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == clientPkg {
			client = "client"
			if imp.Name != nil {
				client = imp.Name.Name
			}
		}
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				if _, dup := structs[ts.Name.Name]; !dup {
					structs[ts.Name.Name] = declaredStruct{st, n, client}
				}
			}
		}
	}
}

// packageStructs parses the non-test Go files of dir, comments kept, and
// returns their package name and the struct types they declare at the top
// level, by name; nothing when dir does not exist.
func packageStructs(dir string) (pkg string, structs map[string]declaredStruct, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	fset := token.NewFileSet()
	structs = map[string]declaredStruct{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		pkg = f.Name.Name
		addFileStructs(structs, f, n)
	}
	return pkg, structs, nil
}

// importAlias is kubebuilder's alias of an API package: group and version
// run together (crewv1), letters and digits only.
func importAlias(group, version string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(group + version) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// orNone is the folders, comma-separated, or "no folder" when there are none.
func orNone(dirs []string) string {
	if len(dirs) == 0 {
		return "no folder (none of " + strings.Join(ctrlCandidates, ", ") + " is there)"
	}
	return strings.Join(dirs, ", ")
}
