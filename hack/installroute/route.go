// Command installroute is hack/install-test.sh: it proves an operator
// pinned the way operators pin can install and use statuspatch from a
// module proxy without any of its versions moving. It builds a file-based
// proxy holding this checkout's modules at the release version
// (hack/internal/releaseproxy), then, with the Go of hack/lines.txt's
// install line as the user's go command:
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
//     installroute install -root REPO [VERSION]
//
// VERSION defaults to the one testenv/go.mod requires. installroute adopt
// is hack/adopt-lines.sh (adopt.go); installroute newcomer is
// hack/newcomer-test.sh, docs/kubebuilder.md's steps on a kubebuilder-shaped
// scaffold (newcomer.go, scaffold.go). The user's Go:
// GOTOOLCHAIN=path with a PATH whose go is the install line's toolchain
// (from the module proxy) and which also holds this machine's Go 1.26 as
// go1.26.N, so the go command switches toolchains as under
// GOTOOLCHAIN=auto without downloading one. Exit status 1 on a failure,
// which it names; 2 for a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: installroute install -root REPO [VERSION] | adopt -root REPO [LINE...] | newcomer -root REPO [LINE...|all]"

// progs name each command's messages as its script's.
var progs = map[string]string{"install": "install-test", "adopt": "adopt-lines", "newcomer": "newcomer-test"}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || progs[args[0]] == "" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the repository's root")
	if err := fs.Parse(args[1:]); err != nil || *root == "" || args[0] == "install" && fs.NArg() > 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	prog := progs[args[0]]
	rt := &route{root: *root, r: runner{prog: prog, stdout: stdout, stderr: stderr, start: time.Now()}}
	defer rt.cleanup()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		rt.cleanup()
		os.Exit(1)
	}()
	err := rt.setup()
	switch {
	case err != nil:
	case args[0] == "install":
		err = rt.install(fs.Arg(0))
	case args[0] == "newcomer":
		err = rt.newcomer(fs.Args())
	default:
		err = rt.adopt(fs.Args())
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	return 0
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
	pinned        pins // install: the operator's go.mod before statuspatch
	r             runner
	loadFn        func() string // the load average newcomer's lines print; nil: /proc/loadavg's

	once   sync.Once
	lock   *releaseproxy.Lock
	caches *releaseproxy.Caches // the caches the proxy's copies were dropped from
}

// setup reads the table of lines and makes the scratch folder.
func (rt *route) setup() error {
	f, err := os.Open(filepath.Join(rt.root, "hack", "lines.txt"))
	if err != nil {
		return err
	}
	rt.table, err = lines.Parse(f)
	_ = f.Close()
	if err != nil {
		return fmt.Errorf("hack/lines.txt: %w", err)
	}
	rt.work, err = os.MkdirTemp("", rt.r.prog+"-")
	return err
}

// install is install-test: the install line, the user's Go in PATH, the
// proxy at version (default: testenv/go.mod's), the steps.
func (rt *route) install(version string) error {
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
	settings, err := rt.useProxy(version, rt.r.stdout)
	if err != nil {
		return err
	}
	set := append(releaseproxy.Environ(settings),
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
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil {
		return "", err
	}
	for _, r := range f.Require {
		if r.Mod.Path == releaseproxy.Module {
			return r.Mod.Version, nil
		}
	}
	return "", failf("cannot read the version %s requires", path)
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

// useProxy takes the release cache's lock (held to the end) and builds
// the proxy of this checkout at version (default: the one testenv/go.mod
// requires), its module list to listing; it returns the go command's
// environment for it.
func (rt *route) useProxy(version string, listing io.Writer) ([]releaseproxy.Setting, error) {
	if version == "" {
		v, err := requiredVersion(filepath.Join(rt.root, "testenv", "go.mod"))
		if err != nil {
			return nil, err
		}
		version = v
	}
	rt.version = version
	rt.r.step("module proxy at %s", rt.version)
	cache, err := releaseproxy.CacheDir(os.Getenv)
	if err != nil {
		return nil, err
	}
	rt.lock, err = releaseproxy.LockDir(cache, func() { fmt.Fprintln(rt.r.stderr, releaseproxy.Waiting(cache)) })
	if err != nil {
		return nil, err
	}
	g := gocmd.Runner{Root: ".", Stdout: rt.r.stdout, Stderr: rt.r.stderr}
	settings, caches, err := releaseproxy.Proxy{Repo: rt.root, Version: rt.version, Work: rt.work, Listing: listing}.Use(g)
	if err != nil {
		return nil, fmt.Errorf("could not build the module proxy of %s at %s: %w", rt.root, rt.version, err)
	}
	rt.caches = &caches
	return settings, nil
}

// cleanup drops the proxy's copies from the module cache (under the lock,
// so that a later project of the caller's downloads a published release
// instead), releases the lock and removes the scratch folder. It runs
// once, at the end or on a signal.
func (rt *route) cleanup() {
	rt.once.Do(func() {
		var errs []error
		if rt.lock != nil {
			if rt.caches != nil {
				errs = append(errs, releaseproxy.Drop(*rt.caches))
			}
			errs = append(errs, rt.lock.Unlock())
		}
		if rt.work != "" {
			_ = filepath.WalkDir(rt.work, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					_ = os.Chmod(p, 0o755)
				}
				return nil
			})
			errs = append(errs, os.RemoveAll(rt.work))
		}
		if err := errors.Join(errs...); err != nil {
			fmt.Fprintf(rt.r.stderr, "%s: cleaning up: %v\n", rt.r.prog, err)
		}
	})
}
