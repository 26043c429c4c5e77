package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The route's later steps: a handwritten write fails every lint command
// and -fix moves it; the optional golangci-lint wiring; the operator's
// tests; docs/testenv.md's assets line; README.md's claims about the
// other routes.

var fixedLine = regexp.MustCompile(`blind\.go:[0-9]*: fixed: `)

func (rt *route) handwritten() error {
	rt.r.step("a handwritten status write must fail every lint command")
	blind := rt.file("internal/controller/blind.go")
	if err := os.WriteFile(blind, []byte(blindWrite("controller")), 0o644); err != nil {
		return err
	}
	readme, err := rt.doc("README.md")
	if err != nil {
		return err
	}
	ls, err := readmeBlock(readme, "lint", rt.version)
	if err != nil {
		return err
	}
	for _, l := range append(ls, "make lint-status") {
		out, err := rt.r.shCombined(rt.op, l)
		if err == nil {
			return failf("'%s' passed on a handwritten status write:\n%s", l, out)
		}
		if !strings.Contains(out, "handwritten status write") {
			return failf("'%s' failed without reporting the write:\n%s", l, out)
		}
		rt.r.printf("ok, fails: %s\n", l)
	}
	// docs/kubebuilder.md's -fix line moves the handwritten write onto the
	// generated patcher (NewWidgetStatusPatcher ... Flush), says so, and
	// exits 0 with no finding left.
	md, err := rt.doc("docs/kubebuilder.md")
	if err != nil {
		return err
	}
	fix, err := fixCommand(md, "bin/statuspatch-lint")
	if err != nil {
		return err
	}
	out, err := rt.r.shCombined(rt.op, fix)
	rt.r.printf("%s", out)
	if err != nil {
		return failf("'%s' failed (%v); docs/kubebuilder.md says it exits 0 once every write is moved", fix, err)
	}
	if !fixedLine.MatchString(out) {
		return failf("'%s' printed no 'blind.go:N: fixed:' line (above)", fix)
	}
	src, err := os.ReadFile(blind)
	if err != nil {
		return err
	}
	if !strings.Contains(string(src), "NewWidgetStatusPatcher") || !strings.Contains(string(src), ".Flush(ctx)") {
		return failf("'%s' did not move blind.go's write onto the generated patcher:\n%s", fix, src)
	}
	if strings.Contains(string(src), "Status().Patch") {
		return failf("'%s' left a handwritten Status().Patch in blind.go", fix)
	}
	if rt.r.run(rt.op, "go", "build", "./...") != nil {
		return failf("the operator does not compile after '%s' (above)", fix)
	}
	if rt.r.run(rt.op, "bin/statuspatch-lint", "./...") != nil {
		return failf("statuspatch-lint reports findings after '%s' moved every write (above)", fix)
	}
	rt.r.printf("ok: %s moved the blind patch onto WidgetStatusPatcher, left no finding and exited 0\n", fix)
	return os.Remove(blind)
}

var golangciFinding = regexp.MustCompile(`blind\.go:[0-9]+:[0-9]+: handwritten status write.*\(statuspatch\)`)

// golangci: with INSTALL_TEST_GOLANGCI=1, kubebuilder v4.15's golangci-lint
// and lint targets, the recipe replaced as docs/kubebuilder.md says, and
// its .golangci.yml edited as it says (hack/golangci-plugin/testdata).
func (rt *route) golangci() error {
	if os.Getenv("INSTALL_TEST_GOLANGCI") != "1" {
		return nil
	}
	rt.r.step("make lint: kubebuilder's lint target with docs/kubebuilder.md's golangci-lint plugin wiring (INSTALL_TEST_GOLANGCI=1)")
	md, err := rt.doc("docs/kubebuilder.md")
	if err != nil {
		return err
	}
	wiring, err := golangciWiring(md)
	if err != nil {
		return err
	}
	mk, err := os.OpenFile(rt.file("Makefile"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(mk, "%s.PHONY: golangci-lint\ngolangci-lint: $(GOLANGCI_LINT)\n.PHONY: lint\nlint: golangci-lint ## Run golangci-lint linter\n\t\"$(GOLANGCI_LINT)\" run\n", wiring)
	if cerr := mk.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	cfg, err := os.ReadFile(filepath.Join(rt.root, "hack/golangci-plugin/testdata/kubebuilder-v4.15.golangci.yml"))
	if err != nil {
		return err
	}
	blind := rt.file("internal/controller/blind.go")
	if err := os.WriteFile(rt.file(".golangci.yml"), cfg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(blind, []byte(blindWrite("controller")), 0o644); err != nil {
		return err
	}
	out, err := rt.r.shCombined(rt.op, "make lint")
	rt.r.printf("%s\n", tail(out, 20))
	if err == nil {
		return failf("make lint passed on a handwritten status write")
	}
	if !golangciFinding.MatchString(out) {
		return failf("make lint failed without statuspatch reporting blind.go (above)")
	}
	if !executable(rt.file("bin/golangci-plugin-" + rt.version)) {
		return failf("make lint did not install the golangci-lint plugin binary %s", rt.version)
	}
	for _, f := range []string{blind, rt.file(".golangci.yml")} {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	v, _ := rt.r.shCombined(rt.op, "bin/golangci-plugin version")
	rt.r.printf("ok: make lint (golangci-lint %s with the plugin) reported the handwritten status write\n", regexp.MustCompile(`[0-9]+\.[0-9]+\.[0-9]+`).FindString(v))
	return nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

func (rt *route) test() error {
	rt.r.step("go test ./... (testenv: the API server compiles here, slow on a cold cache)")
	if rt.r.run(rt.op, "go", "test", "./...") != nil {
		return failf("go test ./... failed: the reconciler's test on testenv (above)")
	}
	return rt.checkPins(rt.pinned, "go build, go vet, go test")
}

// assets runs docs/testenv.md's full-API build line as written: it prints
// the folder of the release of the operator's k8s.io (make test-assets
// built it in CI, else minutes); outside a module it must fail.
func (rt *route) assets() error {
	release := rt.line.Release()
	rt.r.step("docs/testenv.md's full-API build line, as written: the release of the operator's k8s.io (%s; make test-assets built it in CI, else minutes)", release)
	md, err := rt.doc("docs/testenv.md")
	if err != nil {
		return err
	}
	line, err := assetsLine(md)
	if err != nil {
		return err
	}
	rt.r.printf("$ %s\n", line)
	dir, err := rt.r.output(rt.op, nil, "bash", "-euo", "pipefail", "-c", line)
	if err != nil {
		return failf("docs/testenv.md's line failed: %s", line)
	}
	if !strings.HasPrefix(filepath.Base(dir), release+"-") || !executable(filepath.Join(dir, "kube-apiserver")) {
		return failf("docs/testenv.md's line printed %s, want a %s folder (the release of k8s.io %s) holding kube-apiserver", dir, release, rt.line.K8s)
	}
	if err := rt.checkPins(rt.pinned, "docs/testenv.md's testenv-assets line"); err != nil {
		return err
	}
	nomod := filepath.Join(rt.work, "nomodule")
	if err := os.MkdirAll(nomod, 0o755); err != nil {
		return err
	}
	out, err := rt.r.shCombined(nomod, line)
	if err == nil {
		return failf("docs/testenv.md's line succeeded outside any module; it must fail, saying why")
	}
	rt.r.printf("ok: outside a module it fails: %s\n", firstLine(out))
	return nil
}

// otherRoutes checks README.md's claims: GOTOOLCHAIN=local stops go
// install of a tool, and docs/kubebuilder.md's install targets say what to
// set instead; go get -tool raises the go line and the k8s.io versions.
func (rt *route) otherRoutes() error {
	rt.r.step("README.md's claims about the other routes")
	localbin := filepath.Join(rt.work, "localbin")
	out, err := rt.r.shCombined(rt.op, "go install github.com/statuspatch/statuspatch/cmd/statuspatch-lint@"+rt.version, "GOTOOLCHAIN=local", "GOBIN="+localbin)
	if err == nil {
		return failf("GOTOOLCHAIN=local go install of statuspatch-lint with %s succeeded; README.md says it stops with 'requires go >= 1.26.0'", rt.userGo)
	}
	if !strings.Contains(out, "requires go >= 1.26.0") {
		return failf("GOTOOLCHAIN=local go install failed without 'requires go >= 1.26.0', which README.md quotes:\n%s", out)
	}
	rt.r.printf("ok: GOTOOLCHAIN=local: %s\n", lastLine(out))
	out, err = rt.r.shCombined(rt.op, "make LOCALBIN="+localbin+" statuspatch-lint", "GOTOOLCHAIN=local")
	if err == nil {
		return failf("GOTOOLCHAIN=local make statuspatch-lint with %s succeeded; docs/kubebuilder.md says it stops", rt.userGo)
	}
	if !strings.Contains(out, "run make with GOTOOLCHAIN=go1.26.0+auto (or auto)") {
		return failf("GOTOOLCHAIN=local make statuspatch-lint failed without saying what to set:\n%s", out)
	}
	rt.r.printf("ok: GOTOOLCHAIN=local make statuspatch-lint: %s\n", regexp.MustCompile(`.*need Go 1\.26.*`).FindString(out))
	// go get -tool, on a copy: it raises the go line and the k8s.io versions.
	cp := filepath.Join(rt.work, "tool-route")
	if err := rt.r.run("", "cp", "-R", rt.op, cp); err != nil { // bin/ holds go-install-tool's links, which os.CopyFS refuses
		return err
	}
	out, _ = rt.r.shCombined(cp, "go get -tool github.com/statuspatch/statuspatch/cmd/statuspatch-gen@"+rt.version)
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "go: downloading") {
			rt.r.printf("%s\n", l)
		}
	}
	p, err := readPins(filepath.Join(cp, "go.mod"))
	if err != nil {
		return err
	}
	rt.r.printf("go get -tool: %s; k8s.io/apimachinery %s\n", strings.Join(p.goLines, " "), p.req["k8s.io/apimachinery"])
	if len(p.goLines) == 0 || p.goLines[0] != "go 1.26.0" {
		return failf("go get -tool left the go line at %q; README.md says it becomes 1.26.0", p.goLines)
	}
	if !strings.HasPrefix(p.req["k8s.io/apimachinery"], rt.toolK8s+".") {
		return failf("go get -tool left k8s.io/apimachinery at %s; README.md says %s", p.req["k8s.io/apimachinery"], rt.toolK8s)
	}
	rt.r.printf("ok: go get -tool raised the go line to 1.26.0 and k8s.io/apimachinery to %s, as README.md says\n", rt.toolK8s)
	return nil
}
