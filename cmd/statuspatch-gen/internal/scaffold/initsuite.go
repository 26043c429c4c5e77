package scaffold

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The import paths the suite's move from envtest to testenv touches.
const (
	envtestPkg = "sigs.k8s.io/controller-runtime/pkg/envtest"
	testenvPkg = testenvModule
)

// suiteEdit moves kubebuilder v4's scaffolded internal/controller
// suite_test.go (file, text) from envtest to testenv.StartServer: the
// BeforeSuite's envtest.Environment, its Start and the binary lookup
// (getFirstFoundEnvTestBinaryDir) become one StartServer with the same CRD
// directory and scheme.Scheme; cfg, k8sClient, ctx and cancel stay, so the
// controller tests run unchanged; AfterSuite no longer stops envtest
// (DeferCleanup stops testenv). It recognises only the shapes kubebuilder
// v4 scaffolds (v4.0 to v4.15); for anything else it returns why not
// ("file:line: cause"), and newText is "".
func suiteEdit(file, text string) (newText string, why string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", err.Error()
	}
	at := func(n ast.Node, msg string, args ...any) string {
		return fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(msg, args...))
	}
	if !slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"`+envtestPkg+`"` && s.Name == nil }) {
		return "", fmt.Sprintf("%s:1: does not import %s", file, envtestPkg)
	}
	before, after := suiteFunc(f, "BeforeSuite"), suiteFunc(f, "AfterSuite")
	if before == nil || after == nil {
		return "", fmt.Sprintf("%s:1: no var _ = BeforeSuite(func() {...}) and var _ = AfterSuite(func() {...})", file)
	}
	src := func(n ast.Node) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}

	// BeforeSuite: By(...), the envtest.Environment, the binary lookup,
	// Start and its two Expects.
	stmts := before.Body.List
	i := slices.IndexFunc(stmts, func(s ast.Stmt) bool { return strings.HasPrefix(src(s), "testEnv = &envtest.Environment{") })
	if i < 1 || src(stmts[i-1]) != `By("bootstrapping test environment")` {
		return "", at(before, `BeforeSuite has no By("bootstrapping test environment") then testEnv = &envtest.Environment{...}`)
	}
	crdDir, why := envtestLiteral(stmts[i], src, at)
	if why != "" {
		return "", why
	}
	j, declErr, ifs := i+1, false, 0
	if j < len(stmts) && src(stmts[j]) == `if getFirstFoundEnvTestBinaryDir() != "" { testEnv.BinaryAssetsDirectory = getFirstFoundEnvTestBinaryDir() }` {
		j, ifs = j+1, 1
	}
	if j < len(stmts) && src(stmts[j]) == "var err error" {
		j, declErr = j+1, true
	}
	want := []string{"cfg, err = testEnv.Start()", "Expect(err).NotTo(HaveOccurred())", "Expect(cfg).NotTo(BeNil())"}
	for k, w := range want {
		if j+k >= len(stmts) || src(stmts[j+k]) != w {
			return "", at(stmts[min(j+k, len(stmts)-1)], "BeforeSuite does not go on with %s after the envtest.Environment", w)
		}
	}
	last := stmts[j+len(want)-1]
	for n, s := range stmts {
		if (n < i-1 || n > j+len(want)-1) && !reSuiteStmt.MatchString(src(s)) {
			return "", at(s, "BeforeSuite has %s, which kubebuilder v4 does not scaffold", src(s))
		}
	}
	ctxExpr := "context.Background()"
	if slices.ContainsFunc(stmts[:i], func(s ast.Stmt) bool { return src(s) == "ctx, cancel = context.WithCancel(context.TODO())" }) {
		ctxExpr = "ctx"
	}

	// k8sClient: testenv's mapper, as the in-process server has no
	// discovery of the built-in groups that client.New's default asks for.
	const newClient = "k8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme})"
	c := slices.IndexFunc(stmts, func(s ast.Stmt) bool { return src(s) == newClient })
	if c < 0 {
		return "", at(before, "BeforeSuite has no %s", newClient)
	}

	// AfterSuite: By(...), cancel() (v4.2 and later), then envtest's Stop.
	as := after.Body.List
	k := 1
	if len(as) > 1 && src(as[1]) == "cancel()" {
		k = 2
	}
	if len(as) == 0 || src(as[0]) != `By("tearing down the test environment")` {
		return "", at(after, `AfterSuite does not start with By("tearing down the test environment")`)
	}
	stop := make([]string, 0, 2)
	for _, s := range as[k:] {
		stop = append(stop, src(s))
	}
	if !slices.Equal(stop, []string{"err := testEnv.Stop()", "Expect(err).NotTo(HaveOccurred())"}) &&
		!slices.Equal(stop, []string{"Eventually(func() error { return testEnv.Stop() }, time.Minute, time.Second).Should(Succeed())"}) {
		return "", at(after, "AfterSuite does not end with envtest's testEnv.Stop() alone")
	}

	// testEnv and the binary lookup: used nowhere else.
	decl := varSpec(f, "testEnv")
	if decl == nil || src(decl.Type) != "*envtest.Environment" || len(decl.Names) != 1 {
		return "", fmt.Sprintf("%s:1: no var testEnv *envtest.Environment", file)
	}
	lookup := funcDecl(f, "getFirstFoundEnvTestBinaryDir")
	uses := 2 + ifs + 1 // the literal's assignment, the if's, Start, and the Stop
	if n := countIdent(f, "testEnv") - 1; n != uses {
		return "", at(decl, "testEnv is used %d times, not only by the BeforeSuite's envtest set-up and the AfterSuite's Stop", n)
	}
	if lookup != nil && countIdent(f, "getFirstFoundEnvTestBinaryDir")-1 != 2*ifs {
		return "", at(lookup, "getFirstFoundEnvTestBinaryDir is used beyond the BeforeSuite's binary lookup")
	}

	// The edits, from the end of the file back so offsets hold.
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	cuts := []textCut{
		{off(decl.Type.Pos()), off(decl.Type.End()), "*testenv.Env"},
		lines(text, off(stmts[i].Pos()), off(last.End()), startServer(crdDir, ctxExpr, declErr)),
		lines(text, off(as[k].Pos()), off(as[len(as)-1].End()), ""),
		lines(text, off(stmts[c].Pos()), off(stmts[c].End()), "\t// testenv's mapper: the in-process server serves no discovery of the\n"+
			"\t// built-in groups, which client.New's default mapper asks for.\n"+
			"\tk8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme, Mapper: testEnv.Mapper})\n"),
	}
	if lookup != nil {
		from := lookup.Pos()
		if lookup.Doc != nil {
			from = lookup.Doc.Pos()
		}
		cuts = append(cuts, lines(text, off(from), off(lookup.End()), ""))
	}
	slices.SortFunc(cuts, func(a, b textCut) int { return b.from - a.from })
	out := text
	for _, c := range cuts {
		out = out[:c.from] + c.with + out[c.to:]
	}
	out, err = fixImports(file, out)
	if err != nil {
		return "", err.Error()
	}
	return out, ""
}

var (
	// the BeforeSuite's other statements kubebuilder v4 scaffolds: they stay
	reSuiteStmt = regexp.MustCompile(`^(logf\.SetLogger\(zap\.New\(zap\.WriteTo\(GinkgoWriter\), zap\.UseDevMode\(true\)\)\)|ctx, cancel = context\.WithCancel\(context\.TODO\(\)\)|var err error|err = \w+\.AddToScheme\(scheme\.Scheme\)|Expect\(err\)\.NotTo\(HaveOccurred\(\)\)|k8sClient, err = client\.New\(cfg, client\.Options\{Scheme: scheme\.Scheme\}\)|Expect\(k8sClient\)\.NotTo\(BeNil\(\)\))$`)
	reCRDPaths  = regexp.MustCompile(`^\[\]string\{(filepath\.Join\(("\.\.", )+"config", "crd", "bases"\))\}$`)
	reAssetsDir = regexp.MustCompile(`^filepath\.Join\(("\.\.", )+"bin", "k8s", fmt\.Sprintf\("[0-9.]+-%s-%s", runtime\.GOOS, runtime\.GOARCH\)\)$`)
)

// envtestLiteral checks kubebuilder's testEnv = &envtest.Environment{...}
// and returns its CRD directory, filepath.Join(..., "config", "crd", "bases").
func envtestLiteral(s ast.Stmt, src func(ast.Node) string, at func(ast.Node, string, ...any) string) (string, string) {
	as, _ := s.(*ast.AssignStmt)
	var lit *ast.CompositeLit
	if as != nil && len(as.Rhs) == 1 {
		if u, ok := as.Rhs[0].(*ast.UnaryExpr); ok {
			lit, _ = u.X.(*ast.CompositeLit)
		}
	}
	if lit == nil || len(as.Lhs) != 1 {
		return "", at(s, "not testEnv = &envtest.Environment{...}")
	}
	var crdDir string
	seen := map[string]bool{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return "", at(e, "envtest.Environment has an element without a field name")
		}
		key, val := src(kv.Key), src(kv.Value)
		seen[key] = true
		switch {
		case key == "CRDDirectoryPaths" && reCRDPaths.MatchString(val):
			crdDir = reCRDPaths.FindStringSubmatch(val)[1]
		case key == "ErrorIfCRDPathMissing" && val == "true":
		case key == "BinaryAssetsDirectory" && reAssetsDir.MatchString(val):
		default:
			return "", at(kv, "envtest.Environment sets %s: %s, which kubebuilder v4 does not scaffold (or testenv does not do)", key, val)
		}
	}
	if !seen["CRDDirectoryPaths"] || !seen["ErrorIfCRDPathMissing"] {
		return "", at(lit, "envtest.Environment lacks CRDDirectoryPaths or ErrorIfCRDPathMissing: true")
	}
	return crdDir, ""
}

// startServer is the BeforeSuite's testenv start, in place of envtest's.
func startServer(crdDir, ctx string, declErr bool) string {
	var b strings.Builder
	b.WriteString(`	// testenv, not envtest (statuspatch-gen init; docs/kubebuilder.md): the
	// CRDs on an in-process API server, no kube-apiserver or etcd binaries to
	// build; envtest's when KUBEBUILDER_ASSETS is set (make setup-envtest).
`)
	if declErr {
		b.WriteString("\tvar err error\n")
	}
	fmt.Fprintf(&b, `	var stop func()
	testEnv, stop, err = testenv.StartServer(%s,
		testenv.WithCRDDirectory(%s),
		testenv.WithScheme(scheme.Scheme))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	GinkgoWriter.Printf("testenv: %%s API server (%%s)\n", testEnv.Backend, testEnv.BackendReason)

	// cfg is defined in this file globally.
	cfg = testEnv.Config
	Expect(cfg).NotTo(BeNil())
`, ctx, crdDir)
	return b.String()
}

// textCut replaces text[from:to] with with.
type textCut struct {
	from, to int
	with     string
}

// lines widens [from, to) of text to whole lines (through the newline
// after to), to be replaced by with.
func lines(text string, from, to int, with string) textCut {
	from = strings.LastIndexByte(text[:from], '\n') + 1
	if nl := strings.IndexByte(text[to:], '\n'); nl >= 0 {
		to += nl + 1
	}
	return textCut{from, to, with}
}

// fixImports adds testenv's import in a group of its own after
// controller-runtime's (zap's, the last), drops the imports the
// edit left unused, and formats the file.
func fixImports(file, text string) (string, error) {
	text = strings.Replace(text, "\t\""+envtestPkg+"\"\n", "", 1)
	const zap = "\t\"sigs.k8s.io/controller-runtime/pkg/log/zap\"\n"
	text = strings.Replace(text, zap, zap+"\n\t\""+testenvPkg+"\"\n", 1)
	f, err := parser.ParseFile(token.NewFileSet(), file, text, parser.SkipObjectResolution)
	if err != nil {
		return "", fmt.Errorf("statuspatch-gen init: the suite after the edit: %w", err)
	}
	for _, p := range []string{"fmt", "os", "runtime", "time"} {
		if !usesPackage(f, p) {
			text = strings.Replace(text, "\t\""+p+"\"\n", "", 1)
		}
	}
	if !strings.Contains(text, "\t\"context\"\n") {
		// v4.0 and v4.1 have no ctx: StartServer gets context.Background()
		text = strings.Replace(text, "import (\n", "import (\n\t\"context\"\n", 1)
	}
	if !strings.Contains(text, "\t\""+testenvPkg+"\"\n") || !strings.Contains(text, "\t\"context\"\n") {
		return "", fmt.Errorf("%s: the suite's imports are not kubebuilder's (no %s line, or no import block)", file, `"sigs.k8s.io/controller-runtime/pkg/log/zap"`)
	}
	b, err := format.Source([]byte(text))
	if err != nil {
		return "", fmt.Errorf("statuspatch-gen init: the suite after the edit: %w", err)
	}
	return string(b), nil
}

// usesPackage reports whether f refers to the package named name.
func usesPackage(f *ast.File, name string) bool {
	used := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
				used = true
			}
		}
		return !used
	})
	return used
}

// suiteFunc is the function literal of the top-level var _ = name(func() {...}).
func suiteFunc(f *ast.File, name string) *ast.FuncLit {
	var found *ast.FuncLit
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) != 1 {
				continue
			}
			call, ok := vs.Values[0].(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				continue
			}
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == name {
				if lit, ok := call.Args[0].(*ast.FuncLit); ok {
					if found != nil {
						return nil
					}
					found = lit
				}
			}
		}
	}
	return found
}

// varSpec is the top-level var spec that declares name.
func varSpec(f *ast.File, name string) *ast.ValueSpec {
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if slices.ContainsFunc(vs.Names, func(id *ast.Ident) bool { return id.Name == name }) {
					return vs
				}
			}
		}
	}
	return nil
}

// funcDecl is the top-level function name.
func funcDecl(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// countIdent counts the identifiers named name in f.
func countIdent(f *ast.File, name string) int {
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && id.Name == name {
			n++
		}
		return true
	})
	return n
}

// suitePaths are the project's kubebuilder controller suites:
// internal/controller/suite_test.go, and one per group in a multigroup
// project (slash-separated, relative to dir).
func suitePaths(dir string, p *kbProject) []string {
	var paths []string
	for _, d := range p.suiteDirs() {
		m, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(d), "suite_test.go"))
		for _, f := range m {
			if rel, err := filepath.Rel(dir, f); err == nil && !slices.Contains(paths, filepath.ToSlash(rel)) {
				paths = append(paths, filepath.ToSlash(rel))
			}
		}
	}
	return paths
}
