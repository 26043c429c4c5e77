package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// The newcomer route's steps 1-6 at one line (newcomer.go runs them).

// newcomerRun is one line's run of the steps.
type newcomerRun struct {
	*route
	et     envtest
	cg     string // controller-gen
	wsLine bool   // the line the workspace builds
	writes int    // the reconciler's handwritten status writes
	before pins   // the scaffold's go.mod before statuspatch

	mgrBefore runs // the scaffold under a real manager, before statuspatch
}

// install is step 1: README.md's statuspatch-gen install line.
func (n *newcomerRun) install() error {
	n.r.step("1. README.md's statuspatch-gen install line")
	readme, err := n.doc("README.md")
	if err != nil {
		return err
	}
	line := genInstallLine(readme)
	if line == "" {
		return failf("README.md's install block has no GOBIN=$PWD/bin go install line of statuspatch-gen (docs/kubebuilder.md's step 1)")
	}
	n.r.printf("$ %s\n", line)
	if n.r.sh(n.op, line) != nil {
		return failf("README.md's line failed: %s", line)
	}
	return nil
}

// init is step 2: init -dry-run changes nothing, then init.
func (n *newcomerRun) init() error {
	n.r.step("2. bin/statuspatch-gen init, after -dry-run")
	before, err := sums(n.op)
	if err != nil {
		return err
	}
	out, err := n.r.teeAll(n.op, "bin/statuspatch-gen init -dry-run")
	if err != nil {
		return failf("statuspatch-gen init -dry-run failed (above)")
	}
	if !regexp.MustCompile(`(?m)^\+\+\+ b/Makefile$`).MatchString(out) {
		return failf("init -dry-run printed no diff of the Makefile (above)")
	}
	if after, err := sums(n.op); err != nil {
		return err
	} else if d := sumsDiff(before, after); d != "" {
		return failf("init -dry-run changed files: %s", d)
	}
	if n.r.run(n.op, "bin/statuspatch-gen", "init") != nil {
		return failf("statuspatch-gen init failed (above)")
	}
	if err := n.checkPins(n.before, "init"); err != nil {
		return err
	}
	mod, err := os.ReadFile(n.file("go.mod"))
	if err != nil {
		return err
	}
	if !requiresDirectly(string(mod), releaseproxy.Module+"/testenv", n.version) {
		return failf("after init, go.mod does not require testenv %s directly (not // indirect): %s", n.version, statuspatchLines(string(mod)))
	}
	if _, err := os.Stat(n.file("internal/controller/widget_testenv_test.go")); err != nil {
		return failf("init wrote no starter test internal/controller/widget_testenv_test.go")
	}
	return nil
}

var lintBeforeMessage = regexp.MustCompile(`(?m)handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/widgets/internal/patchers\)$`)

// generate is step 3: make generate writes internal/patchers; make
// lint-status fails on the handwritten writes, naming it.
func (n *newcomerRun) generate() error {
	n.r.step("3. make generate")
	out, err := n.r.teeAll(n.op, "make generate")
	if err != nil {
		return failf("make generate failed (above)")
	}
	if m := recipeClash(out); m != "" {
		n.r.printf("%s", m)
		return failf("init's Makefile block replaces a recipe of the scaffold's (above); it must compose")
	}
	if _, err := os.Stat(n.file("internal/patchers/zz_generated.statuspatch.go")); err != nil {
		return failf("make generate wrote no internal/patchers/zz_generated.statuspatch.go")
	}
	out, err = n.r.shCombined(n.op, "make lint-status")
	n.r.printf("%s", out)
	if err == nil {
		return failf("make lint-status passed on the handwritten status write")
	}
	if !lintBeforeMessage.MatchString(out) {
		return failf("before the reconciler imports internal/patchers, the message does not name it (above)")
	}
	// Step 4 installs the linter as the docs say: not from this check.
	old, _ := filepath.Glob(n.file("bin/statuspatch-lint-*"))
	for _, f := range append(old, n.file("bin/statuspatch-lint")) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

var fixedWrite = regexp.MustCompile(`(?m)(widget_(controller|summary|phase)|status)\.go:[0-9:]*: fixed: `)

// reconcilerFiles hold the handwritten writes.
var reconcilerFiles = []string{"internal/controller/widget_controller.go", "internal/controller/widget_summary.go", "internal/controller/widget_phase.go", "internal/status/status.go"}

// fix is step 4: docs/kubebuilder.md's fix block, line by line as written.
func (n *newcomerRun) fix() error {
	n.r.step("4. the -fix step: docs/kubebuilder.md's fix block, line by line as written")
	md, err := n.doc("docs/kubebuilder.md")
	if err != nil {
		return err
	}
	cmds, err := fixBlock(md)
	if err != nil {
		return err
	}
	for _, cmd := range cmds {
		n.r.printf("$ %s\n", cmd)
		out, err := n.r.teeAll(n.op, cmd)
		if strings.HasPrefix(cmd, "bin/statuspatch-lint -fix") {
			if err := n.reportFleet(out); err != nil {
				return err
			}
		}
		if err != nil {
			return failf("'%s' (docs/kubebuilder.md's fix block) exited %d (above); the docs say -fix exits 0 once every write is moved", cmd, gocmd.ExitCode(err))
		}
		if strings.HasPrefix(cmd, "bin/statuspatch-lint -fix") {
			if c := len(fixedWrite.FindAllString(out, -1)); c != n.writes {
				return failf("'%s' printed %d 'widget_{controller,summary,phase}.go:N: fixed:' or 'status.go:N: fixed:' lines, want %d: the deferred Update, the blind write, the optimistic one, the Update, the client.Merge patch, the typed and the unstructured server-side applies and internal/status's Update (above)", cmd, c, n.writes)
			}
		}
	}
	var src strings.Builder
	for _, f := range reconcilerFiles {
		b, err := os.ReadFile(n.file(f))
		if err != nil {
			return err
		}
		src.Write(b)
	}
	if err := n.fleetLeft(); err != nil {
		return err
	}
	if left := handwrittenLeft(src.String()); left != "" {
		n.r.printf("%s", left)
		return failf("a handwritten status write is left in the reconciler after the fix block (above)")
	}
	if !movedOntoPatchers(src.String(), n.writes) {
		n.r.printf("%s", src.String())
		return failf("the fix block did not move the %d writes onto NewWidgetStatusPatcher (5), FetchWidgetStatusPatcher (the re-fetch), Retry (those decided from the status: the parts, Ready, and the summary where its apply's form moves) and Flush (%d in all with Retry), the two applies in apply mode under their field owners with ApplyStatus (above)", n.writes, n.writes)
	}
	n.r.printf("%s", src.String())
	mod, err := os.ReadFile(n.file("go.mod"))
	if err != nil {
		return err
	}
	for _, m := range []string{releaseproxy.Module, releaseproxy.Module + "/testenv"} {
		if !requiresDirectly(string(mod), m, n.version) {
			return failf("after the fix block, go.mod does not require %s %s directly: %s", m, n.version, statuspatchLines(string(mod)))
		}
	}
	if err := n.checkPins(n.before, "step 4"); err != nil {
		return err
	}
	if err := os.RemoveAll(n.file("internal/patchers")); err != nil {
		return err
	}
	if n.r.run(n.op, "make", "manifests") != nil {
		return failf("make manifests failed from a checkout without internal/patchers (above)")
	}
	if _, err := os.Stat(n.file("internal/patchers/zz_generated.statuspatch.go")); err != nil {
		return failf("make manifests did not run generate-patchers first")
	}
	return nil
}

var (
	testedController = regexp.MustCompile(`(?m)^ok\s+example.com/widgets/internal/controller`)
	envtestSetUp     = regexp.MustCompile(`(?m)^.*(Setting up envtest binaries|testenv-assets).*$`)
	golangciRan      = regexp.MustCompile(`bin/golangci-plugin"? run`)
)

// test is step 5: the scaffold's own make test, timed, the suite as an
// IDE runs it, make lint.
func (n *newcomerRun) test() error {
	n.r.step("5. the scaffold's own make test and make lint: $ make test (the suite on testenv's in-process server, no envtest binaries)")
	suite, err := os.ReadFile(n.file("internal/controller/suite_test.go"))
	if err != nil || countLines(string(suite), "testenv.StartServer(") != 1 {
		return failf("init did not move internal/controller/suite_test.go onto testenv.StartServer: %s", suite)
	}
	t0 := time.Now()
	out, err := n.r.teeAll(n.op, "make test")
	if err != nil {
		return failf("the scaffold's make test failed (above)")
	}
	first := int(time.Since(t0).Seconds())
	if !testedController.MatchString(out) {
		return failf("make test did not run internal/controller's tests (above)")
	}
	if m := envtestSetUp.FindAllString(out, -1); m != nil {
		n.r.printf("%s\n", strings.Join(m, "\n"))
		return failf("make test set up envtest's binaries (above)")
	}
	assets, _ := filepath.Glob(n.file("bin/testenv-assets*"))
	if _, err := os.Lstat(n.file("bin/k8s")); len(assets) > 0 || err == nil {
		ls, _ := os.ReadDir(n.file("bin"))
		var names []string
		for _, e := range ls {
			names = append(names, e.Name())
		}
		return failf("make test installed testenv-assets or linked envtest's binaries: %s", strings.Join(names, " "))
	}
	// As an IDE runs it: no binaries, no make; the suite says which server.
	out, err = n.r.teeAll(n.op, "go test -count=1 -v ./internal/controller/ -run TestControllers -ginkgo.v")
	if err != nil {
		return failf("go test of the suite without make failed (above)")
	}
	if !strings.Contains(out, "testenv: embedded API server (KUBEBUILDER_ASSETS is not set)") {
		return failf("the suite did not run on testenv's embedded API server (above)")
	}
	if !strings.Contains(out, "Ran 1 of 1 Specs") {
		return failf("the suite did not run kubebuilder's controller test (above)")
	}
	out, err = n.r.teeAll(n.op, "make lint")
	if err != nil {
		return failf("make lint failed (above)")
	}
	// init's golangci-lint edits: make lint is statuspatch's golangci-lint
	// build with kubebuilder's .golangci.yml (every linter of it, the
	// statuspatch linter in logcheck's place), over init's starter test
	// and the code -fix wrote.
	if !golangciRan.MatchString(out) {
		return failf("make lint did not run statuspatch's golangci-lint build, bin/golangci-plugin (above)")
	}
	// What a user waits for: the first make test of the new project and,
	// at the workspace's line, make test again after an edit of the
	// controller (the loop a user lives in).
	timing := fmt.Sprintf("the scaffold's first make test: %ds", first)
	if n.wsLine {
		ctrl := n.file("internal/controller/widget_controller.go")
		orig, err := os.ReadFile(ctrl)
		if err != nil {
			return err
		}
		if err := os.WriteFile(ctrl, append(append([]byte(nil), orig...), "// edited\n"...), 0o644); err != nil {
			return err
		}
		t0 := time.Now()
		out, err := n.r.shCombined(n.op, "make test")
		if err != nil {
			n.r.printf("%s", out)
			return failf("make test after an edit failed (above)")
		}
		timing += fmt.Sprintf("; again after an edit of the controller: %ds", int(time.Since(t0).Seconds()))
		if err := os.WriteFile(ctrl, orig, 0o644); err != nil {
			return err
		}
	}
	n.r.step("%s", timing)
	return nil
}

// fullAPI is step 5b: make setup-envtest, its folder as
// KUBEBUILDER_ASSETS (docs/kubebuilder.md's two lines: the export, then
// make test), and the suite on envtest.
func (n *newcomerRun) fullAPI() error {
	if n.et.skip != "" {
		n.r.step("5b. the full API, for who wants it: %s", n.et.skip)
		return nil
	}
	setup := strings.Join(n.et.setup, " ")
	n.r.step("5b. the full API, for who wants it: $ %s, its folder as KUBEBUILDER_ASSETS, then the suite on envtest (%s)", setup, n.et.note)
	out, err := n.r.shCombined(n.op, setup)
	n.r.printf("%s", out)
	if err != nil {
		return failf("%s failed (above)", setup)
	}
	if !strings.Contains(out, "Setting up envtest binaries for Kubernetes version "+n.et.want+"...") {
		return failf("make setup-envtest did not set up envtest's binaries for Kubernetes %s (above)", n.et.want)
	}
	assets := lastLine(out)
	if !executable(filepath.Join(assets, "kube-apiserver")) || !strings.HasPrefix(assets, n.file("bin/k8s")+"/") {
		return failf("make setup-envtest's last line, %s, is not a bin/k8s folder with kube-apiserver", assets)
	}
	if out, err := n.r.shCombined(n.op, fmt.Sprintf("export KUBEBUILDER_ASSETS=%q && make test", assets)); err != nil {
		n.r.printf("%s", out)
		return failf("make test with KUBEBUILDER_ASSETS=%s exported failed (above)", assets)
	}
	out, err = n.r.teeAll(n.op, "go test -count=1 -v ./internal/controller/ -run TestControllers -ginkgo.v", "KUBEBUILDER_ASSETS="+assets)
	if err != nil {
		return failf("the suite with KUBEBUILDER_ASSETS=%s failed (above)", assets)
	}
	if !strings.Contains(out, "testenv: envtest API server (KUBEBUILDER_ASSETS="+assets+" selects envtest") {
		return failf("with KUBEBUILDER_ASSETS exported, the suite did not run on envtest (above)")
	}
	return nil
}

// again is step 6: init again changes nothing.
func (n *newcomerRun) again() error {
	n.r.step("6. init again changes nothing")
	before, err := sums(n.op)
	if err != nil {
		return err
	}
	out, err := n.r.teeAll(n.op, "bin/statuspatch-gen init")
	if err != nil {
		return failf("the second init failed (above)")
	}
	if !strings.Contains(out, "nothing to change") {
		return failf("the second init changed files (above)")
	}
	after, err := sums(n.op)
	if err != nil {
		return err
	}
	if d := sumsDiff(before, after); d != "" {
		return failf("the second init changed files: %s", d)
	}
	return nil
}
