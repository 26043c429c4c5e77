// Package installroute holds hack's routes, which hack/e2e runs as go
// test suites (TestInstall, TestAdopt/LINE, TestNewcomer/LINE): each proves
// a part of the docs as a user runs them, with statuspatch from a module
// proxy of this checkout (Proxy: hack/internal/releaseproxy, built once per
// go test run under the release cache's lock).
//
// Install (make test-install) proves an operator pinned the way operators
// pin can install and use statuspatch from the proxy without any of its
// versions moving. With the Go of hack/lines.txt's install line as the
// user's go command, it:
//
//  1. makes a scratch operator module pinned like a real one at the
//     install line (lines.Line.GoMod: its go line, controller-runtime,
//     k8s.io, and replace directives as keda and sei-k8s-controller pin);
//     go mod tidy; records its go.mod's pins;
//
//  2. runs README.md's install block exactly as written, then
//     docs/kubebuilder.md's generate and lint-status targets inside a
//     kubebuilder-style Makefile: make generate, make manifests and go
//     build twice, from a checkout whose reconciler imports the not yet
//     generated internal/patchers (where controller-gen alone fails);
//
//  3. checks after each step that no pin moved (pins.go);
//
//  4. builds, vets, runs README.md's lint block and make lint-status (each
//     must also fail on a handwritten status write), statuspatch-lint -fix
//     as docs/kubebuilder.md gives it, and tests the reconciler on testenv;
//     with INSTALL_TEST_GOLANGCI=1 also kubebuilder's make lint with the
//     golangci-lint plugin wiring (minutes more); runs docs/testenv.md's
//     full-API build line as written, and outside a module (it must fail);
//
//  5. checks README.md's claims about the other routes: with
//     GOTOOLCHAIN=local, go install of a tool stops at "requires go >=
//     1.26.0"; go get -tool raises the module's go line and k8s.io.
//
// Adopt is adoption at one older line (adopt.go); Newcomer is
// docs/kubebuilder.md's steps on a kubebuilder-shaped scaffold at one line
// (newcomer.go, scaffold.go). The user's Go: GOTOOLCHAIN=path with a PATH
// whose go is the line's toolchain (from the module proxy) and which also
// holds this machine's Go 1.26 as go1.26.N, so the go command switches
// toolchains as under GOTOOLCHAIN=auto without downloading one. A route
// returns the failure, which it names.
package installroute

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// Config is what a route takes: the repository, its table of lines, the
// proxy the routes share, the folder the route's scratch folder is made in
// ("": the system's), and where its steps and its commands' output go.
type Config struct {
	Root  string
	Table lines.Table
	Proxy *Proxy
	Work  string
	Out   io.Writer
}

// newRoute makes a route's scratch folder; prog names its messages.
func newRoute(c Config, prog string) (*route, error) {
	if c.Proxy == nil {
		return nil, failf("no module proxy")
	}
	work, err := os.MkdirTemp(c.Work, prog+"-")
	if err != nil {
		return nil, err
	}
	return &route{root: c.Root, table: c.Table, work: work, version: c.Proxy.Version, settings: c.Proxy.Settings,
		r: runner{prog: prog, dir: work, stdout: c.Out, stderr: c.Out, start: time.Now()}}, nil
}

// Install is the install route (make test-install): the install line, the
// user's Go in PATH, the proxy, the steps.
func Install(c Config) error {
	rt, err := newRoute(c, "install-test")
	if err != nil {
		return err
	}
	defer rt.cleanup()
	return rt.install()
}

// route is one run: the repository, its table of lines, the scratch
// folder and the operator in it, and the commands' runner.
type route struct {
	root, version string
	table         lines.Table
	line          lines.Line // install: the install line
	toolK8s       string     // install: the k8s.io minor go get -tool raises the module to, the workspace line's
	work, op      string
	userGo        string
	pinned        pins                   // install: the operator's go.mod before statuspatch
	settings      []releaseproxy.Setting // the go command's settings for the proxy
	r             runner
}

func (rt *route) install() error {
	var ok bool
	if rt.line, ok = rt.table.Role(lines.Install); !ok {
		return failf("hack/lines.txt has no install line")
	}
	ws, ok := rt.table.Role(lines.Workspace)
	if !ok {
		return failf("hack/lines.txt has no workspace line")
	}
	rt.toolK8s, rt.userGo = ws.K8sMinor(), rt.line.Toolchain
	if err := rt.userGoInPath(true); err != nil {
		return err
	}
	rt.proxyStep()
	set := append(releaseproxy.Environ(rt.settings),
		"PATH="+filepath.Join(rt.work, "path")+string(os.PathListSeparator)+os.Getenv("PATH"), "GOTOOLCHAIN=path")
	rt.r.env = environ(os.Environ(), []string{"KUBEBUILDER_ASSETS", "GOROOT"}, set...)
	if v, err := rt.r.output("", nil, "go", "env", "GOVERSION"); err != nil || v != rt.userGo {
		return failf("go in PATH is %s, want %s", v, rt.userGo)
	}
	if err := rt.r.run("", "go", "version"); err != nil {
		return err
	}
	return rt.steps()
}

// requiredVersion is the version of github.com/statuspatch/statuspatch the
// go.mod at path requires.
func requiredVersion(path string) (string, error) {
	v, err := releaseproxy.RequiredVersion(path, releaseproxy.Module)
	if err != nil {
		return "", failf("cannot read the version %s requires: %v", path, err)
	}
	return v, nil
}

var goVersionRE = regexp.MustCompile(`^go1\.([0-9]+)`)

// hostGoOK reports whether the machine's Go can stand in for the Go 1.26
// toolchain a user's go command downloads for the tools.
func hostGoOK(v string) bool {
	m := goVersionRE.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[1])
	return n >= 26
}

// userGoInPath makes work/path: go and gofmt of the line's toolchain, and
// this machine's go as go1.26.N (unless that is the line's toolchain);
// announce prints it as a step.
func (rt *route) userGoInPath(announce bool) error {
	if announce {
		rt.r.step("the user's Go (%s) and this machine's Go 1.26, in PATH", rt.userGo)
	}
	hostGo, err := rt.r.output("", []string{"GOTOOLCHAIN=local"}, "go", "env", "GOVERSION")
	if err != nil || !hostGoOK(hostGo) {
		return failf("this machine's go is %s; the tools need Go 1.26 or newer to stand in for the toolchain a user's go command downloads", hostGo)
	}
	userRoot, err := rt.r.output("", []string{"GOWORK=off", "GOTOOLCHAIN=" + rt.userGo}, "go", "env", "GOROOT")
	if err != nil {
		return failf("cannot get %s from the module proxy (GOTOOLCHAIN=%s go env GOROOT failed)", rt.userGo, rt.userGo)
	}
	hostRoot, err := rt.r.output("", []string{"GOTOOLCHAIN=local"}, "go", "env", "GOROOT")
	if err != nil {
		return err
	}
	dir := filepath.Join(rt.work, "path")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	links := map[string]string{
		"go":    filepath.Join(userRoot, "bin", "go"),
		"gofmt": filepath.Join(userRoot, "bin", "gofmt"),
	}
	if hostGo != rt.userGo {
		links[hostGo] = filepath.Join(hostRoot, "bin", "go")
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			return err
		}
	}
	return nil
}

// proxyStep says which proxy the route uses.
func (rt *route) proxyStep() {
	rt.r.step("module proxy at %s (built once for this go test run, under the release cache's lock)", rt.version)
}

// cleanup removes the scratch folder.
func (rt *route) cleanup() {
	if err := RemoveAll(rt.work); err != nil {
		fmt.Fprintf(rt.r.stderr, "%s: cleaning up: %v\n", rt.r.prog, err)
	}
}

// RemoveAll removes dir, making its folders writable first (the go
// command leaves module folders read-only).
func RemoveAll(dir string) error {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
