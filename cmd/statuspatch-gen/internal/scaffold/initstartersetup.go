package scaffold

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
)

// The starter test builds its reconciler with a Client (and a Scheme). What
// SetupWithManager sets on the reconciler besides its Client, or registers
// on the manager's cache, that reconciler would lack: kubebuilder's CronJob
// tutorial sets Clock there (nil otherwise: Reconcile's r.Now() panics) and
// registers a field index its List reads with client.MatchingFields (the
// API server the test's client reads from refuses the field). Where
// SetupWithManager does either (setupNeeds), the test runs it on a manager
// of its own, never started, whose cache alone is started and serves the
// Lists that select by an indexed field (the template "setup").

// setupNeeds is what the SetupWithManager of type recv (a reconciler's
// name) in the folder dir (project-relative ctrlDir) sets on its receiver
// other than Client, and the field indexes it registers: "sets r.Clock
// (file:line)" entries, in source order; none when there is no such
// method or it does neither. args are the arguments the test calls it
// with, its manager m ("m", or "t.Context(), m" for one taking a context
// first); "" when its parameters are others, which the test cannot give.
// A file in wired is read as init leaves it.
func setupNeeds(dir, ctrlDir, recv string, wired map[string]string) (out []string, args string, indexes []indexFunc, err error) {
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(ctrlDir)))
	if err != nil {
		return nil, "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	fset := token.NewFileSet()
	called := map[string]bool{}    // the functions SetupWithManager calls
	calls := map[string][]string{} // the functions each function of the folder calls
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		var src any
		if text, ok := wired[path.Join(ctrlDir, n)]; ok {
			src = text
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, filepath.FromSlash(ctrlDir), n), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && fd.Body != nil {
				ast.Inspect(fd.Body, func(x ast.Node) bool {
					if c, ok := x.(*ast.CallExpr); ok {
						if id, ok := c.Fun.(*ast.Ident); ok {
							calls[fd.Name.Name] = append(calls[fd.Name.Name], id.Name)
						}
					}
					return true
				})
			}
			if ix, ok := indexFuncOf(fd); ok {
				ix.at = fmt.Sprintf("%s:%d", path.Join(ctrlDir, n), fset.Position(fd.Pos()).Line)
				indexes = append(indexes, ix)
				continue
			}
			if !ok || fd.Name.Name != "SetupWithManager" || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 ||
				typeName(fd.Recv.List[0].Type) != recv || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			self := fd.Recv.List[0].Names[0].Name
			args = setupArgs(fd.Type)
			mgr := managerParam(fd.Type)
			where := func(p token.Pos) string { return fmt.Sprintf("%s:%d", path.Join(ctrlDir, n), fset.Position(p).Line) }
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				switch x := x.(type) {
				case *ast.FuncLit:
					return false // an index's extractor, a predicate: run later
				case *ast.AssignStmt:
					for _, l := range x.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok && isIdent(sel.X, self) && sel.Sel.Name != "Client" {
							out = append(out, fmt.Sprintf("SetupWithManager sets %s.%s (%s)", self, sel.Sel.Name, where(x.Pos())))
						}
					}
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok {
						called[id.Name] = true
					}
					sel, _ := x.Fun.(*ast.SelectorExpr)
					switch {
					case sel != nil && sel.Sel.Name == "IndexField":
						out = append(out, fmt.Sprintf("SetupWithManager registers a field index (%s)", where(x.Pos())))
					case sel != nil && isIdent(sel.X, self):
						// r.setDefaults(): what it sets is not read here
						out = append(out, fmt.Sprintf("SetupWithManager calls %s.%s, which may set more on %s (%s)", self, sel.Sel.Name, self, where(x.Pos())))
					case mgr != "" && !builderCall(x) && slices.ContainsFunc(x.Args, func(a ast.Expr) bool { return mentions(a, mgr) }):
						// indexJobOwner(ctx, mgr.GetFieldIndexer())
						out = append(out, fmt.Sprintf("SetupWithManager gives the manager to %s (%s)", types.ExprString(x.Fun), where(x.Pos())))
					}
				}
				return true
			})
		}
	}
	// what SetupWithManager calls, and what those call, registers its
	// indexes already: a second IndexField would fail ("indexer conflict")
	for grew := true; grew; {
		grew = false
		for name := range called {
			for _, c := range calls[name] {
				if !called[c] {
					called[c], grew = true, true
				}
			}
		}
	}
	indexes = slices.DeleteFunc(indexes, func(ix indexFunc) bool { return called[ix.name] })
	for _, ix := range indexes {
		out = append(out, fmt.Sprintf("%s registers a field index, and SetupWithManager does not call it: the test calls it on its manager (%s)", ix.name, ix.at))
	}
	return out, args, indexes, nil
}

// indexFunc is a function of the reconcilers' package, outside
// SetupWithManager, that registers a field index on the manager it is
// given (a SetupIndexes(ctx, mgr) cmd/main.go calls): the starter test
// calls it on its own manager.
type indexFunc struct {
	name, at string
	args     string // as setupArgs
	errs     bool   // it returns an error
}

// indexFuncOf reports whether fd is an indexFunc: a function (no
// receiver) taking a manager (and a context first) whose body calls
// IndexField outside a function literal, returning nothing or an error.
func indexFuncOf(fd *ast.FuncDecl) (indexFunc, bool) {
	if fd == nil || fd.Recv != nil || fd.Body == nil || fd.Name.Name == "init" {
		return indexFunc{}, false
	}
	ix := indexFunc{name: fd.Name.Name, args: setupArgs(fd.Type)}
	if ix.args == "" {
		if fd.Type.Results != nil {
			return indexFunc{}, false
		}
		// no result: called as it is
		withErr := *fd.Type
		withErr.Results = &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("error")}}}
		if ix.args = setupArgs(&withErr); ix.args == "" {
			return indexFunc{}, false
		}
	} else {
		ix.errs = true
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "IndexField" {
				found = true
			}
		}
		return !found
	})
	return ix, found
}

// managerParam is the name of ft's parameter of a type named Manager
// (ctrl.Manager, manager.Manager); "" for none.
func managerParam(ft *ast.FuncType) string {
	for _, f := range ft.Params.List {
		if sel, ok := f.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Manager" && len(f.Names) == 1 {
			return f.Names[0].Name
		}
	}
	return ""
}

// builderCall reports whether call starts a controller or webhook
// builder on the manager (ctrl.NewControllerManagedBy(mgr)), or wraps its
// client (patcher.ForManager, init's wiring): nothing it does needs the
// reconciler set up before Reconcile.
func builderCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "NewControllerManagedBy", "ControllerManagedBy", "NewWebhookManagedBy", "WebhookManagedBy", "ForManager":
		return true
	}
	return false
}

// mentions reports whether e names the identifier name.
func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// setupArgs is what the test passes a SetupWithManager of type ft: "m" for
// (mgr ctrl.Manager) error, "t.Context(), m" for (ctx context.Context, mgr
// ctrl.Manager) error (any package's Manager: the test's manager embeds
// controller-runtime's); "" for any other.
func setupArgs(ft *ast.FuncType) string {
	var params []ast.Expr
	for _, f := range ft.Params.List {
		for range max(len(f.Names), 1) {
			params = append(params, f.Type)
		}
	}
	named := func(e ast.Expr, pkg, name string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == name && (pkg == "" || isIdent(sel.X, pkg))
	}
	if ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 || !isIdent(ft.Results.List[0].Type, "error") {
		return ""
	}
	switch {
	case len(params) == 1 && named(params[0], "", "Manager"):
		return "m"
	case len(params) == 2 && named(params[0], "context", "Context") && named(params[1], "", "Manager"):
		return "t.Context(), m"
	}
	return ""
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// starterIndex is a function the starter test calls on its manager
// (indexFunc).
type starterIndex struct {
	Name, Args string
	Errs       bool
}

// starterField is a field the starter test sets on its reconciler as
// the project's builder does: r.Name = m.Call.
type starterField struct{ Name, Call string }

// builtFields are the fields the first place the module builds typeName
// (a reconciler of the package at ctrlDir) sets besides its client and
// scheme (builtSites), in the files as init leaves them.
func builtFields(dir string, p *kbProject, ctrlDir, typeName string) ([]builtField, error) {
	texts := newSourceTexts(dir)
	for rel, text := range p.wired {
		texts.set(rel, text)
	}
	sites, err := builtSites(texts, p.Repo, ctrlDir, typeName, nil)
	if err != nil || len(sites) == 0 {
		return nil, err
	}
	return sites[0].fields, nil
}

// setupNote is init's note where the test cannot run SetupWithManager
// (setupArgs: its parameters are not a manager, or a context and one).
func setupNote(kind, test string, needs []string) string {
	return fmt.Sprintf("statuspatch-gen init: %s: %sReconciler's SetupWithManager takes parameters the starter test cannot give, and %s: set the same where the test builds the reconciler (a field index needs a client reading through a cache that has it; the API server the test's client reads from refuses the field: \"field label not supported\")",
		test, kind, strings.Join(needs, ", and "))
}

// The starter test's SetupWithManager on a manager of its own (setupNeeds).
var _ = template.Must(starterTemplate.New("setup").Parse(`
// starterSetUp{{.Kind}} runs r.SetupWithManager, as cmd/main.go does, on a
// manager of its own that is never started: its controller never runs (the
// test calls Reconcile). What statuspatch-gen init found to need it:
{{- range .Setup}}
//   - {{.}}
{{- end}}
//
// The manager's cache alone is started. The client returned, for the test
// to give r, is env.Client but for a List that selects by a field
// SetupWithManager indexed, which reads from that cache (the API server
// refuses such a field: "field label not supported").
func starterSetUp{{.Kind}}(t *testing.T, env *testenv.Env, r *{{.Kind}}Reconciler) client.Client {
	t.Helper()
	skip := true // the tests set up several reconcilers of one controller name
	mgr, err := ctrl.NewManager(env.Config, ctrl.Options{
		Scheme: env.Scheme,
		// testenv's mapper: its in-process server serves no discovery of
		// the built-in kinds
		MapperProvider: func(*rest.Config, *http.Client) (apimeta.RESTMapper, error) { return env.Mapper, nil },
		Controller:     config.Controller{SkipNameValidation: &skip},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := &starterManager{Manager: mgr}
{{- range .Built}}
	r.{{.Name}} = m.{{.Call}}
{{- end}}
{{- range .Indexes}}
{{- if .Errs}}
	if err := {{.Name}}({{.Args}}); err != nil {
		t.Fatalf("{{.Name}}: %v", err)
	}
{{- else}}
	{{.Name}}({{.Args}})
{{- end}}
{{- end}}
	if err := r.SetupWithManager({{.SetupArgs}}); err != nil {
		// It runs once for each reconciler the tests build, in one process
		// with the package's other tests (a suite's manager too): what it
		// may do once only (register a metric) fails the second time.
		t.Fatalf("SetupWithManager, run by the starter test on a manager of its own: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.GetCache().Start(t.Context()) }()
	t.Cleanup(func() {
		if err := <-done; err != nil {
			t.Errorf("the manager's cache: %v", err)
		}
	})
	if !mgr.GetCache().WaitForCacheSync(t.Context()) {
		t.Fatal("the manager's cache did not sync")
	}
	return &starterIndexedClient{Client: env.Client, indexed: mgr.GetCache(), fields: m.fields}
}

// starterManager is the manager the test's SetupWithManager is given: it
// records the fields indexed on its cache, through GetFieldIndexer or
// GetCache.
type starterManager struct {
	ctrl.Manager
	fields []string
}

func (m *starterManager) GetFieldIndexer() client.FieldIndexer {
	return starterIndexer{FieldIndexer: m.Manager.GetFieldIndexer(), m: m}
}

func (m *starterManager) GetCache() cache.Cache {
	c := m.Manager.GetCache()
	return starterCache{Cache: c, indexer: starterIndexer{FieldIndexer: c, m: m}}
}

type starterIndexer struct {
	client.FieldIndexer
	m *starterManager
}

func (i starterIndexer) IndexField(ctx context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	i.m.fields = append(i.m.fields, field)
	return i.FieldIndexer.IndexField(ctx, obj, field, extract)
}

type starterCache struct {
	cache.Cache
	indexer starterIndexer
}

func (c starterCache) IndexField(ctx context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	return c.indexer.IndexField(ctx, obj, field, extract)
}

// starterIndexedClient is a client whose List, given a field selector
// naming a field the manager's cache indexes, reads from that cache.
type starterIndexedClient struct {
	client.Client
	indexed client.Reader
	fields  []string
}

func (c *starterIndexedClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if lo := (&client.ListOptions{}).ApplyOptions(opts); lo.FieldSelector != nil {
		for _, req := range lo.FieldSelector.Requirements() {
			if slices.Contains(c.fields, req.Field) {
				return c.indexed.List(ctx, list, opts...)
			}
		}
	}
	return c.Client.List(ctx, list, opts...)
}
`))
