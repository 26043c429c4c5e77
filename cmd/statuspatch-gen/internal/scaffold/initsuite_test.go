package scaffold

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The suites kubebuilder v4 scaffolds, as the init goldens hold them:
// v4.15's (getFirstFoundEnvTestBinaryDir, Eventually around Stop) and
// v4.3's (BinaryAssetsDirectory in the literal, AddToScheme after Start).
var (
	suiteV415 = filepath.Join("testdata", "init", "v4.15-no-webhooks", "before", "internal", "controller", "suite_test.go")
	suiteV43  = filepath.Join("testdata", "init", "v4.3", "before", "internal", "controller", "suite_test.go")
)

// TestSuiteEditShapes: each shape kubebuilder v4 scaffolds moves onto
// testenv.StartServer, keeps cfg, k8sClient, ctx and cancel, imports
// neither envtest nor what only envtest's lines used, and parses; v4.0's
// and v4.1's, without ctx, start testenv with context.Background().
func TestSuiteEditShapes(t *testing.T) {
	v41 := readGolden(t, suiteV43)
	for _, cut := range []string{"var ctx context.Context\n", "var cancel context.CancelFunc\n", "\tctx, cancel = context.WithCancel(context.TODO())\n\n", "\tcancel()\n", "\t\"context\"\n"} {
		if !strings.Contains(v41, cut) {
			t.Fatalf("%s has no %q", suiteV43, cut)
		}
		v41 = strings.Replace(v41, cut, "", 1)
	}
	for name, c := range map[string]struct{ text, ctx string }{
		"v4.15": {readGolden(t, suiteV415), "ctx"},
		"v4.3":  {readGolden(t, suiteV43), "ctx"},
		"v4.1":  {v41, "context.Background()"},
	} {
		t.Run(name, func(t *testing.T) {
			got, why := suiteEdit("suite_test.go", c.text)
			if why != "" {
				t.Fatalf("not recognised: %s", why)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "suite_test.go", got, 0); err != nil {
				t.Fatalf("%v\n%s", err, got)
			}
			for _, want := range []string{
				"testEnv, stop, err = testenv.StartServer(" + c.ctx + ",\n",
				`testenv.WithCRDDirectory(filepath.Join("..", "..", "config", "crd", "bases"))`,
				"testenv.WithScheme(scheme.Scheme))",
				"DeferCleanup(stop)",
				"cfg = testEnv.Config\n",
				"k8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme, Mapper: testEnv.Mapper})",
				"\t\"" + testenvPkg + "\"\n",
				"testEnv   *testenv.Env", // v4.15's var block, aligned
			} {
				if want == "testEnv   *testenv.Env" && name != "v4.15" {
					want = "var testEnv *testenv.Env"
				}
				if !strings.Contains(got, want) {
					t.Errorf("the moved suite has no %q:\n%s", want, got)
				}
			}
			for _, gone := range []string{envtestPkg, "envtest.", "getFirstFoundEnvTestBinaryDir", "BinaryAssetsDirectory", "testEnv.Stop", "\"os\"", "\"time\"", "\"fmt\"", "\"runtime\""} {
				if strings.Contains(got, gone) {
					t.Errorf("the moved suite still has %q:\n%s", gone, got)
				}
			}
			if again, why := suiteEdit("suite_test.go", got); why == "" || again != "" {
				t.Errorf("the moved suite is recognised again: %q", why)
			}
		})
	}
}

// TestSuiteEditRefuses: a suite that is not the shape kubebuilder
// scaffolds is left alone, saying file:line and what differs.
func TestSuiteEditRefuses(t *testing.T) {
	suite := readGolden(t, suiteV415)
	for name, c := range map[string]struct{ old, new, want string }{
		"an envtest field more": {"ErrorIfCRDPathMissing: true,\n", "ErrorIfCRDPathMissing: true,\n\t\tAttachControlPlaneOutput: true,\n",
			`^suite_test.go:\d+:\d+: envtest.Environment sets AttachControlPlaneOutput: true, which kubebuilder v4 does not scaffold`},
		"a webhook install": {"ErrorIfCRDPathMissing: true,\n", "ErrorIfCRDPathMissing: true,\n\t\tWebhookInstallOptions: envtest.WebhookInstallOptions{},\n",
			`envtest.Environment sets WebhookInstallOptions`},
		"another CRD directory": {`"config", "crd", "bases"`, `"config", "crds"`, `envtest.Environment sets CRDDirectoryPaths`},
		"testEnv used by a spec": {"func TestControllers(", "var _ = testEnv.ControlPlane\n\nfunc TestControllers(",
			`^suite_test.go:\d+:\d+: testEnv is used 5 times, not only by`},
		"no By": {"\tBy(\"bootstrapping test environment\")\n", "", `^suite_test.go:\d+:\d+: BeforeSuite has no By\("bootstrapping test environment"\)`},
		"a step after Start": {"\tExpect(cfg).NotTo(BeNil())\n", "\tExpect(cfg).NotTo(BeNil())\n\tExpect(cfg.Host).NotTo(BeEmpty())\n",
			`^suite_test.go:\d+:\d+: BeforeSuite has Expect\(cfg.Host\).NotTo\(BeEmpty\(\)\), which kubebuilder v4 does not scaffold`},
		"Start elsewhere":            {"	Expect(cfg).NotTo(BeNil())\n", "", `^suite_test.go:\d+:\d+: BeforeSuite does not go on with Expect\(cfg\).NotTo\(BeNil\(\)\)`},
		"AfterSuite waits otherwise": {"time.Minute, time.Second", "2*time.Minute, time.Second", `AfterSuite does not end with envtest's testEnv.Stop\(\) alone`},
		"does not parse":             {"var _ = AfterSuite(func() {", "var _ = AfterSuite(func() {{", `^suite_test.go:\d+:\d+: `},
	} {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(suite, c.old) {
				t.Fatalf("%s has no %q", suiteV415, c.old)
			}
			got, why := suiteEdit("suite_test.go", strings.Replace(suite, c.old, c.new, 1))
			if got != "" || !regexp.MustCompile(c.want).MatchString(why) {
				t.Errorf("suiteEdit = %q, why %q; want it left alone, why matching %q", got, why, c.want)
			}
		})
	}
}

// TestInitSuiteStays: init leaves a suite it does not recognise, and its
// make test, on envtest, saying why; so it does where another test imports
// envtest; a second run changes nothing and says it again.
func TestInitSuiteStays(t *testing.T) {
	for name, c := range map[string]struct {
		edit  func(dir string)
		want  string
		suite bool // the suite moves all the same
	}{
		"a suite of its own": {func(dir string) {
			p := filepath.Join(dir, "internal", "controller", "suite_test.go")
			b, _ := os.ReadFile(p)
			writeFile(t, p, strings.Replace(string(b), "ErrorIfCRDPathMissing: true,\n", "ErrorIfCRDPathMissing: true,\n\t\tUseExistingCluster: &useCluster,\n", 1))
		}, `internal/controller/suite_test.go stays on envtest, as it is not the suite kubebuilder v4 scaffolds: DIR/internal/controller/suite_test.go:\d+:\d+: envtest.Environment sets UseExistingCluster`, false},
		"another envtest test": {func(dir string) {
			writeFile(t, filepath.Join(dir, "test", "integration", "api_test.go"), "package integration\n\nimport _ \""+envtestPkg+"\"\n")
		}, `make test keeps building envtest's binaries: test/integration/api_test.go imports envtest`, true},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("testdata", "init", "v4.15-no-webhooks", "before"), dir, nil)
			c.edit(dir)
			before := readTree(t, dir)["internal/controller/suite_test.go"]
			for run := range 2 {
				var out bytes.Buffer
				if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
					t.Fatalf("%v\n%s", err, out.String())
				}
				want := strings.ReplaceAll(c.want, "DIR", regexp.QuoteMeta(dir))
				if !regexp.MustCompile(want).MatchString(out.String()) {
					t.Errorf("run %d does not say %q:\n%s", run+1, want, out.String())
				}
				if run == 1 && !strings.Contains(out.String(), "nothing to change") {
					t.Errorf("the second run changes something:\n%s", out.String())
				}
				tree := readTree(t, dir)
				if moved := tree["internal/controller/suite_test.go"] != before; moved != c.suite {
					t.Errorf("run %d: the suite moved: %v, want %v", run+1, moved, c.suite)
				}
				if !strings.Contains(tree["Makefile"], "test: manifests generate fmt vet setup-envtest ## Run tests.\n\tKUBEBUILDER_ASSETS=") {
					t.Errorf("run %d: make test no longer sets up envtest", run+1)
				}
			}
		})
	}
}

// TestTestTargetVetOnce: make test's go test skips its own vet pass only
// where the test rule runs kubebuilder's go vet ./... first, and keeps a
// -vet flag the user chose.
func TestTestTargetVetOnce(t *testing.T) {
	before := readGolden(t, filepath.Join("testdata", "init", "v4.15-no-webhooks", "before", "Makefile"))
	const rule, vet = "test: manifests generate fmt vet setup-envtest ## Run tests.\n", "vet: ## Run go vet against code.\n\tgo vet ./...\n"
	for name, c := range map[string]struct {
		from, to string
		want     string
	}{
		"kubebuilder's":          {"", "", "\tgo test -vet=off $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n"},
		"no vet prerequisite":    {rule, "test: manifests generate fmt setup-envtest ## Run tests.\n", "\tgo test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n"},
		"vet of some packages":   {vet, "vet: ## Run go vet against code.\n\tgo vet ./internal/...\n", "\tgo test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n"},
		"the user's own -vet":    {"go test $$(go list", "go test -vet=all $$(go list", "\tgo test -vet=all $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n"},
		"vet a prerequisite too": {rule, "test: manifests generate vet fmt setup-envtest ## Run tests.\n", "\tgo test -vet=off $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(before, c.from) {
				t.Fatalf("the golden Makefile has no %q", c.from)
			}
			text, _, err := editMakefile("Makefile", strings.Replace(before, c.from, c.to, 1), "v0.1.0", v4Block)
			if err != nil {
				t.Fatal(err)
			}
			got, why := testTargetEdit("Makefile", text)
			if why != "" {
				t.Fatalf("make test stays on envtest: %s", why)
			}
			if !strings.Contains(got, "## Run tests.\n"+c.want) {
				t.Errorf("the test recipe is not %q:\n%s", c.want, got[strings.Index(got, "\ntest:"):][:300])
			}
			if again, _ := testTargetEdit("Makefile", got); again != got {
				t.Errorf("a second edit changes the Makefile")
			}
		})
	}
}
