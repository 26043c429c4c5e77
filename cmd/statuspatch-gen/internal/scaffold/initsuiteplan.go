package scaffold

import (
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// planTestServer plans the suites' move to testenv (planSuites) and, when
// no test needs envtest's binaries then, make test's (testTargetEdit) in
// makefile, the Makefile after editMakefile, which it returns. It first
// finds the calls on built-in kinds (p.builtins), which keep the suites
// on envtest and the starter test on the full API.
func planTestServer(dir string, p *kbProject, makefile string) ([]fileEdit, []string, string, error) {
	module, err := modulePath(dir)
	if err != nil {
		module = p.Repo // PROJECT's repo: the module path kubebuilder wrote
	}
	if p.builtins, err = builtinKindUses(dir, module); err != nil {
		return nil, nil, "", err
	}
	p.builtins = rewired(dir, p.builtins, p.wired)
	edits, notes, onTestenv, err := planSuites(dir, p)
	if err != nil || !onTestenv || !strings.Contains(makefile, "STATUSPATCH_ENVTEST_USE") {
		// (a Makefile whose setup-envtest lines init left as they are
		// keeps them in make test: editMakefile said so)
		return edits, notes, makefile, err
	}
	makefile, why := testTargetEdit("Makefile", makefile)
	if why != "" {
		notes = append(notes, why)
	}
	return edits, notes, makefile, nil
}

// planSuites plans the move of the project's kubebuilder controller suites
// (suitePaths) from envtest to testenv.StartServer, where they need only
// CRDs: not when PROJECT has webhooks (kubebuilder's webhook suites need
// envtest's WebhookInstallOptions), and only a suite of the shape
// kubebuilder v4 scaffolds (suiteEdit), and not when the code make test
// compiles uses built-in kinds (p.builtins), which the in-process server
// does not serve: envtest's kube-apiserver does, as the project had it. onTestenv reports whether, after
// the edits, no test of the project needs envtest's binaries: then make
// test need not build them (testTargetEdit). notes say what stays, and why.
func planSuites(dir string, p *kbProject) (edits []fileEdit, notes []string, onTestenv bool, err error) {
	say := func(format string, args ...any) {
		notes = append(notes, "statuspatch-gen init: "+fmt.Sprintf(format, args...))
	}
	paths := suitePaths(dir, p)
	var hooks []string
	for _, r := range p.Resources {
		if len(r.Webhooks) > 0 && string(r.Webhooks) != "null" && !slices.Contains(hooks, r.Kind) {
			hooks = append(hooks, r.Kind)
		}
	}
	onTestenv = len(paths) > 0
	for _, path := range paths {
		text, err := readText(dir, path)
		if err != nil {
			return nil, nil, false, err
		}
		if !strings.Contains(text, `"`+envtestPkg+`"`) {
			// on testenv already (an earlier init), or the user's own
			if len(p.builtins) > 0 && strings.Contains(text, "testenv.StartServer(") && !strings.Contains(text, "WithFullAPI") {
				say("%s starts testenv's in-process server, which serves the CRDs only, but the code make test compiles %s: %s; add testenv.WithFullAPI() to its StartServer, or put envtest back, and have make test export KUBEBUILDER_ASSETS (docs/kubebuilder.md#the-full-api-and-the-first-make-test)", path, builtinWhat(p.builtins), builtinList(p.builtins))
			}
			continue
		}
		if len(hooks) > 0 {
			say("%s stays on envtest, as PROJECT has webhooks (%s), whose suites need envtest's kube-apiserver; make test keeps building its binaries (docs/kubebuilder.md#tests-suite_testgo-and-kubebuilder_assets)", path, strings.Join(hooks, ", "))
			onTestenv = false
			continue
		}
		if len(p.builtins) > 0 {
			say("%s stays on envtest, as the code make test compiles %s, which testenv's in-process server does not serve: %s; make test keeps building envtest's binaries (docs/kubebuilder.md#the-full-api-and-the-first-make-test)", path, builtinWhat(p.builtins), builtinList(p.builtins))
			onTestenv = false
			continue
		}
		newText, why := suiteEdit(filepath.Join(dir, filepath.FromSlash(path)), text)
		if why != "" {
			say("%s stays on envtest, as it is not the suite kubebuilder v4 scaffolds: %s; so make test keeps building envtest's binaries (docs/kubebuilder.md#tests-suite_testgo-and-kubebuilder_assets)", path, why)
			onTestenv = false
			continue
		}
		edits = append(edits, fileEdit{path: path, old: text, new: newText})
	}
	if !onTestenv {
		return edits, notes, false, nil
	}
	others, err := envtestUsers(dir, paths)
	if err != nil {
		return nil, nil, false, err
	}
	if len(others) > 0 {
		say("make test keeps building envtest's binaries: %s import%s envtest", strings.Join(others, ", "), map[bool]string{true: "s", false: ""}[len(others) == 1])
		return edits, notes, false, nil
	}
	return edits, notes, true, nil
}

// envtestUsers are the project's Go test files, but the suites, that
// import envtest, of those go test compiles (build constraints hold).
func envtestUsers(dir string, suites []string) ([]string, error) {
	var users []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(name, ".") || name == "bin" || name == "vendor" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") {
			return nil
		}
		if ok, err := build.Default.MatchFile(filepath.Dir(path), name); err != nil || !ok {
			return err // go test does not compile it (a build tag make test never sets)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || slices.Contains(suites, filepath.ToSlash(rel)) {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), `"`+envtestPkg+`"`) {
			users = append(users, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	return users, nil
}

var (
	// kubebuilder v4's test rule: envtest (v4.0 to v4.3) or setup-envtest
	// (later) among its prerequisites
	reTestRule = regexp.MustCompile(`(?m)^(test:[^#\n]*?) (?:setup-envtest|envtest)\b([^#\n]*(?:##.*)?)$`)
	// its recipe, after editMakefile
	reTestRecipe = regexp.MustCompile(`(?m)^\tKUBEBUILDER_ASSETS="\$\(shell \$\(call STATUSPATCH_ENVTEST_USE,\$\(ENVTEST_K8S_VERSION\)\)\)" (go test( .*))$`)
	// a setup-envtest rule that still builds the binaries on demand
	reSetupEnvtest = regexp.MustCompile(`(?m)^setup-envtest:.*\n(?:\t.*\n)*?\t.*\$\(call STATUSPATCH_ENVTEST_USE,`)
	// kubebuilder's vet rule, go vet ./... (every check go test's vet pass
	// makes, and more), and a test rule that runs it first
	reVetRule       = regexp.MustCompile(`(?m)^vet:.*\n\tgo vet \./\.\.\.[ \t]*$`)
	reTestVetsFirst = regexp.MustCompile(`(?m)^test:[^#\n]* vet\b`)
)

// testTargetEdit drops envtest from make test (text is the Makefile after
// editMakefile): no setup-envtest prerequisite, no KUBEBUILDER_ASSETS, so
// the suites run on testenv's embedded server and nothing builds
// kube-apiserver; one exported by the user still selects envtest. Only
// where a setup-envtest target keeps building the binaries for users who
// want them (kubebuilder v4.4 and later); else text as it is, and why.
// Where the test rule runs kubebuilder's vet rule (go vet ./...) first,
// its go test gets -vet=off: go test's own vet pass is a subset of go
// vet's, but with other flags, so it would check every dependency again
// (testenv's in-process server among them: about two minutes of a first
// make test on 2 cores; docs/benchmarks.md).
func testTargetEdit(file, text string) (string, string) {
	if !reTestRecipe.MatchString(text) && !reTestRule.MatchString(text) {
		return text, "" // done already
	}
	if len(reTestRule.FindAllString(text, -1)) != 1 || len(reTestRecipe.FindAllString(text, -1)) != 1 {
		return text, fmt.Sprintf("statuspatch-gen init: %s: make test keeps building envtest's binaries: its test target is not kubebuilder v4's (test: ... setup-envtest, then KUBEBUILDER_ASSETS=\"$(shell ...)\" go test ...)", file)
	}
	if !reSetupEnvtest.MatchString(text) {
		return text, fmt.Sprintf("statuspatch-gen init: %s: make test keeps building envtest's binaries and exporting KUBEBUILDER_ASSETS (the suites then run on envtest), as this Makefile has no setup-envtest target that would build them for tests that need the full API (kubebuilder v4.4 and later scaffold one); without make (an IDE), the suites run on testenv's in-process server", file)
	}
	text = reTestRule.ReplaceAllString(text, "$1$2")
	goTest := reTestRecipe.FindStringSubmatch(text)
	recipe := "\t" + goTest[1]
	if !strings.Contains(goTest[1], "-vet") && reVetRule.MatchString(text) && reTestVetsFirst.MatchString(text) {
		recipe = "\tgo test -vet=off" + goTest[2]
	}
	return reTestRecipe.ReplaceAllLiteralString(text, recipe), ""
}
