package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The route's steps, in order (main.go's doc lists them).
func (rt *route) steps() error {
	for _, s := range []func() error{
		rt.operator, rt.installBlock, rt.generate, rt.lintMessage, rt.buildAndLint,
		rt.handwritten, rt.golangci, rt.test, rt.assets, rt.otherRoutes,
	} {
		if err := s(); err != nil {
			return err
		}
	}
	rt.r.step("ok: installed %s from the proxy with %s; the operator's versions did not move", rt.version, rt.userGo)
	return nil
}

func (rt *route) doc(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(rt.root, name))
	return string(b), err
}

func (rt *route) file(name string) string { return filepath.Join(rt.op, name) }

// checkPins fails when a pin of the operator's go.mod moved since the
// snapshot.
func (rt *route) checkPins(before pins, step string) error {
	now, err := readPins(rt.file("go.mod"))
	if err != nil {
		return err
	}
	if m := moved(before, now); len(m) > 0 {
		return failf("after %s: %s", step, strings.Join(m, "; "))
	}
	rt.r.printf("%s\n", before.summary(now, step))
	return nil
}

// operator makes the scratch operator, pinned at the install line, and
// records its pins. The reconciler and its test use statuspatch: they
// arrive after go mod tidy.
func (rt *route) operator() error {
	l := rt.line
	rt.r.step("scratch operator module, pinned like a real one (go %s, controller-runtime %s, k8s.io %s, replace)", l.GoLine(), l.CR, l.K8s)
	rt.op = filepath.Join(rt.work, "operator")
	if err := os.CopyFS(rt.op, os.DirFS(filepath.Join(rt.root, "hack", "installtest", "testdata", "operator"))); err != nil {
		return err
	}
	aside := filepath.Join(rt.work, "internal")
	if err := os.Rename(rt.file("internal"), aside); err != nil {
		return err
	}
	if err := os.WriteFile(rt.file("go.mod"), []byte(l.GoMod("example.com/widgets")), 0o644); err != nil {
		return err
	}
	if rt.r.run(rt.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed in the pinned operator, before statuspatch (above)")
	}
	p, err := readPins(rt.file("go.mod"))
	if err != nil {
		return err
	}
	rt.pinned = p
	for _, m := range []string{"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go", "sigs.k8s.io/controller-runtime"} {
		if p.req[m] == "" {
			return failf("the pinned module does not require %s after go mod tidy", m)
		}
		rt.r.printf("\t%s %s\n", m, p.req[m])
	}
	return os.Rename(aside, rt.file("internal"))
}

// runBlock runs README.md's block marker line by line, as written.
func (rt *route) runBlock(marker string) error {
	readme, err := rt.doc("README.md")
	if err != nil {
		return err
	}
	ls, err := readmeBlock(readme, marker, rt.version)
	if err != nil {
		return err
	}
	for _, l := range ls {
		rt.r.printf("$ %s\n", l)
		if rt.r.sh(rt.op, l) != nil {
			return failf("README.md's %s line failed: %s", marker, l)
		}
	}
	return nil
}

var toolRequire = regexp.MustCompile(`(?m)^(tool|[[:space:]]*github.com/statuspatch/statuspatch/cmd/).*$`)

func (rt *route) installBlock() error {
	rt.r.step("README.md's install block")
	if err := rt.runBlock("install"); err != nil {
		return err
	}
	if err := rt.checkPins(rt.pinned, "README.md's install block"); err != nil {
		return err
	}
	if !executable(rt.file("bin/statuspatch-gen")) || !executable(rt.file("bin/statuspatch-lint")) {
		return failf("README.md's install block did not put statuspatch-gen and statuspatch-lint into bin/")
	}
	mod, err := os.ReadFile(rt.file("go.mod"))
	if err != nil {
		return err
	}
	if m := toolRequire.FindAllString(string(mod), -1); m != nil {
		return failf("README.md's install block made the tools requirements of the module: %q", m)
	}
	// The go command ran the tools' builds with Go 1.26 (their go.mod's go line).
	return rt.r.run(rt.op, "go", "version", "bin/statuspatch-gen", "bin/statuspatch-lint")
}

func (rt *route) generate() error {
	rt.r.step("generate: docs/kubebuilder.md's Makefile targets and kubebuilder's manifests, twice, from a checkout without patchers")
	cg := os.Getenv("CONTROLLER_GEN")
	if cg == "" {
		cg = filepath.Join(rt.root, "bin", "controller-gen")
	}
	if !executable(cg) {
		return failf("%s not found; run 'make tools' or set CONTROLLER_GEN", cg)
	}
	md, err := rt.doc("docs/kubebuilder.md")
	if err != nil {
		return err
	}
	blockText, err := makefileBlock(md)
	if err != nil {
		return err
	}
	mk := makefileFrame(cg) + blockText
	if err := os.WriteFile(rt.file("Makefile"), []byte(mk), 0o644); err != nil {
		return err
	}
	if !strings.Contains(mk, "STATUSPATCH_VERSION ?= "+rt.version) {
		return failf("docs/kubebuilder.md's STATUSPATCH_VERSION is not %s", rt.version)
	}
	rec, err := os.ReadFile(rt.file("internal/controller/widget_controller.go"))
	if err != nil || !strings.Contains(string(rec), "example.com/widgets/internal/patchers") {
		return failf("the scratch operator's reconciler does not import internal/patchers, the recommended layout")
	}
	if _, err := os.Stat(rt.file("internal/patchers")); err == nil {
		return failf("internal/patchers exists before make generate; the test starts from a checkout without it")
	}
	// controller-gen loads ./..., which holds the reconciler importing the
	// missing internal/patchers: it fails unless statuspatch-gen ran first.
	out, err := rt.r.shCombined(rt.op, fmt.Sprintf("%q object:headerFile=%q paths=%q", cg, "hack/boilerplate.go.txt", "./..."))
	if err == nil {
		return failf("controller-gen object passed with internal/patchers missing; docs/kubebuilder.md says it fails (why statuspatch-gen runs first)")
	}
	if !strings.Contains(out, "internal/patchers") {
		return failf("controller-gen object failed, but not on the missing internal/patchers:\n%s", out)
	}
	rt.r.printf("ok: without internal/patchers, controller-gen object fails: %s\n", firstLine(out))
	if err := os.Remove(rt.file("bin/statuspatch-gen")); err != nil && !os.IsNotExist(err) { // the README's go install put it there; go-install-tool must
		return err
	}
	for round := 1; round <= 2; round++ {
		out, err := rt.r.teeAll(rt.op, "make generate") // as make generate 2>&1 | tee
		if err != nil {
			return failf("round %d: docs/kubebuilder.md's make generate failed (above)", round)
		}
		// The block composes with kubebuilder's own generate target (issue 32).
		if strings.Contains(out, "overriding recipe") || strings.Contains(out, "ignoring old recipe") {
			return failf("docs/kubebuilder.md's Makefile block replaces a target of kubebuilder's (above); it must only add prerequisites")
		}
		if rt.r.run(rt.op, "make", "manifests") != nil {
			return failf("round %d: kubebuilder's make manifests failed after make generate (above)", round)
		}
		if rt.r.run(rt.op, "go", "build", "./...") != nil {
			return failf("round %d: go build ./... failed after make generate manifests (above)", round)
		}
	}
	return rt.generated()
}

// generated checks what make generate wrote, and the pins after it and
// after go mod tidy.
func (rt *route) generated() error {
	if !executable(rt.file("bin/statuspatch-gen-" + rt.version)) {
		return failf("make generate did not install statuspatch-gen %s", rt.version)
	}
	patchers := "internal/patchers/zz_generated.statuspatch.go"
	for _, f := range []string{patchers, "config/crd/bases/widgets.example.com_widgets.yaml", "config/rbac/role.yaml", "api/v1/zz_generated.deepcopy.go"} {
		if _, err := os.Stat(rt.file(f)); err != nil {
			return failf("make generate and make manifests did not write %s", f)
		}
		rt.r.printf("%s\n", f)
	}
	if _, err := os.Stat(rt.file("api/v1/zz_generated.statuspatch.go")); err == nil {
		return failf("make generate wrote api/v1/zz_generated.statuspatch.go; docs/kubebuilder.md's line has output:dir=./internal/patchers")
	}
	src, err := os.ReadFile(rt.file(patchers))
	if err != nil {
		return err
	}
	if regexp.MustCompile(`(?m)^//go:build`).Match(src) {
		return failf("%s has a //go:build line: controller-gen, which loads with ignore_autogenerated, would see internal/patchers without Go files", patchers)
	}
	if err := rt.checkPins(rt.pinned, "make generate, make manifests"); err != nil {
		return err
	}
	if rt.r.run(rt.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed after make generate (above)")
	}
	if err := rt.checkPins(rt.pinned, "go mod tidy"); err != nil {
		return err
	}
	return rt.r.sh(rt.op, `grep -E '^\s*github.com/statuspatch/statuspatch' go.mod`)
}

// blindWrite is a newcomer's handwritten status write: a blind merge
// patch of package pkg.
func blindWrite(pkg string) string {
	return `package ` + pkg + `

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

func blind(ctx context.Context, c client.Client, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	w.Status.Parts = nil
	return c.Status().Patch(ctx, w, client.MergeFrom(base))
}
`
}

var legacyMessage = regexp.MustCompile(`(?m)handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/widgets/internal/patchers\)$`)

// lintMessage: a newcomer's controller before step 4 of
// docs/kubebuilder.md writes status by hand and does not import
// internal/patchers yet; the finding names it.
func (rt *route) lintMessage() error {
	rt.r.step("the lint message before the controller imports the patchers: it names internal/patchers")
	if err := os.MkdirAll(rt.file("internal/legacy"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(rt.file("internal/legacy/legacy.go"), []byte(blindWrite("legacy")), 0o644); err != nil {
		return err
	}
	out, err := rt.r.shCombined(rt.op, "bin/statuspatch-lint ./internal/legacy/")
	if err == nil {
		return failf("statuspatch-lint passed on a handwritten status write")
	}
	rt.r.printf("%s", out)
	if !legacyMessage.MatchString(out) {
		return failf("before the controller imports internal/patchers, the message does not name it (above)")
	}
	return os.RemoveAll(rt.file("internal/legacy"))
}

func (rt *route) buildAndLint() error {
	rt.r.step("build and vet (the generated patchers compile against controller-runtime %s), README.md's lint block, make lint-status", rt.line.CR)
	if rt.r.run(rt.op, "go", "build", "./...") != nil {
		return failf("go build ./... failed: the operator with the generated patchers does not compile (above)")
	}
	if rt.r.run(rt.op, "go", "vet", "./...") != nil {
		return failf("go vet ./... failed in the operator (above)")
	}
	if err := os.Remove(rt.file("bin/statuspatch-lint")); err != nil && !os.IsNotExist(err) { // make lint-status installs it with go-install-tool
		return err
	}
	if rt.r.run(rt.op, "make", "lint-status") != nil {
		return failf("docs/kubebuilder.md's make lint-status failed on an operator without handwritten status writes (above)")
	}
	if !executable(rt.file("bin/statuspatch-lint-" + rt.version)) {
		return failf("make lint-status did not install statuspatch-lint %s", rt.version)
	}
	return rt.runBlock("lint")
}
