package installroute

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
	"github.com/statuspatch/statuspatch/hack/internal/wsversions"
)

// Newcomer is docs/kubebuilder.md's "Steps" as a new user reads them
// (TestNewcomer/LINE, make test-newcomer), in a scratch operator shaped
// like a kubebuilder v4 scaffold at one supported line of hack/lines.txt.
//
// The line's controller-runtime, k8s.io and Go toolchain are
// hack/lines.txt's: the scaffold's go.mod pins controller-runtime and k8s.io
// there by require and by replace (lines.Line.GoMod), says the line's go
// line, and every command runs as a user whose installed Go is that
// toolchain would run it (GOTOOLCHAIN=path, as the install route sets it
// up: the tools' go 1.26 line switches to this machine's Go 1.26). The
// scaffold's make test builds no kube-apiserver or etcd: init moves
// kubebuilder's suite_test.go onto testenv's in-process server and drops
// setup-envtest from make test. envtest's binaries are still checked after
// make test and make lint, as a user who wants the full API gets them:
// make setup-envtest, its output exported as KUBEBUILDER_ASSETS, and the
// suite on envtest. Their Kubernetes (envtestChoice): by default, step 5b
// runs at the line whose own envtest release is the one make test-assets
// builds (the install line's), and is left out, saying so, at the others:
// there the binaries of the line's own release are not built (about 20
// minutes a line cold), and what the step checks beyond that line's
// testenv (its full-API tests, KUBEBUILDER_ASSETS's selection among them,
// run at every line by hack/compat.sh) is the Makefile and suite that init
// writes, the same text at every line. NEWCOMER_ENVTEST_K8S_VERSION=<a
// release> runs it at every line with that release (make setup-envtest
// ENVTEST_K8S_VERSION=<release> at the lines whose own is another: the
// binaries make test-assets built, for the install line's release);
// NEWCOMER_ENVTEST_K8S_VERSION=line runs it at every line with the line's
// own.
//
// The scaffold: hack/installtest/testdata/operator's api/v1, cmd and hack,
// a reconciler with five handwritten status writes the ways kubebuilder
// users write them (testdata/newcomer: a blind MergeFrom patch, a helper's
// locked one, then Update, a re-Get and a client.Merge patch, and a
// server-side apply), kubebuilder v4.15.0's suite_test.go and controller
// test word for word (hack/installtest/testdata/kubebuilder), a PROJECT
// file, kubebuilder v4.15.0's own Makefile word for word
// (cmd/statuspatch-gen/internal/scaffold/testdata/init/v4.15/before) with
// its .golangci.yml and .custom-gcl.yml; beside the Widget, the fleet
// (fleet.go: seven shapes of status write, issue 80's six and
// kubebuilder's deploy-image tutorial's, each on its own kind, each
// handing out a token once); statuspatch from a module proxy of this checkout
// (internal/releaseproxy). The steps:
//
//  0. the scaffold under a real manager, before statuspatch (in a copy
//     with testenv added: managercounts.go): one manager, its cached
//     client, 10 Widgets and 10 objects of each of the fleet's kinds
//     created at once, three runs; reconcile errors, conflicts logged
//     (409s and writes the patcher refused as conflicts) and decisions
//     processed twice (the fleet's: tokens handed out beyond one per
//     object) are counted and printed, per kind;
//  1. README.md's statuspatch-gen install line;
//  2. bin/statuspatch-gen init: -dry-run first writes nothing; then init,
//     which changes no pin (pins.go), adds testenv as a direct requirement
//     and a starter test;
//  3. make generate: internal/patchers is written; the reconciler still
//     writes status by hand: make lint-status fails, naming
//     internal/patchers;
//  4. docs/kubebuilder.md's fix block, line by line as written: all five
//     writes move onto WidgetStatusPatcher, what -fix did to each of the
//     fleet's writes is printed (moved, or kept with its finding) and each
//     must move, -fix exits 0, no pin moves,
//     both statuspatch modules are direct requirements; make manifests
//     passes from a checkout without internal/patchers; the manager of
//     step 0 again, SetupWithManager as init wired it: no conflict may reach
//     the log and no decision may be processed twice;
//  5. the scaffold's own make test (timed: "the scaffold's first make
//     test: Ns"), go test -v of the suite as an IDE runs it (on the
//     embedded API server), make lint (statuspatch's golangci-lint
//     build, which init wires in for kubebuilder's .golangci.yml, with
//     every linter of that file and the statuspatch linter); then
//     the full API: make setup-envtest, its
//     folder as KUBEBUILDER_ASSETS, make test and the suite on envtest;
//  6. init again: nothing to change.
//
// The tools kubebuilder's Makefile installs that are not statuspatch's
// (controller-gen, golangci-lint) are put in bin/ under the names its
// go-install-tool gives them, so make installs nothing but statuspatch's.
func Newcomer(c Config, l lines.Line) error {
	if l.Has(lines.Below) {
		return failf("line %s is below the floor: not supported", l.Name)
	}
	rt, err := newRoute(c, "newcomer-test")
	if err != nil {
		return err
	}
	defer rt.cleanup()
	return rt.newcomerAt(l)
}

// envtest is the Kubernetes release of step 5's envtest binaries at a
// line: make setup-envtest's command line, the note the steps print, and
// the release its output must name; or, when skip is set, why step 5b is
// left out at the line.
type envtest struct {
	setup []string
	note  string
	want  string
	skip  string
}

var envtestMinor = regexp.MustCompile(`^v?(1\.[0-9]+)([.].*)?$`)

// envtestChoice: release is NEWCOMER_ENVTEST_K8S_VERSION; assets is the
// release make test-assets builds (lines.Table.Assets). The line runs with
// its own derived version when release is "line" or the line's own, or,
// release unset, when assets is the line's own; with release by make
// variable when it is another; release unset and assets another than the
// line's own, step 5b is left out (skip says why, and how to run it).
func envtestChoice(release, assets string, l lines.Line) envtest {
	isOwn := func(r string) bool { return envtestMinor.ReplaceAllString(r, "$1") == l.Envtest }
	switch {
	case release == "" && !isOwn(assets):
		return envtest{
			note: fmt.Sprintf("none: step 5b runs at the line whose own release make test-assets builds (%s)", assets),
			skip: fmt.Sprintf("left out at this line: its own envtest release, %s, is not built here (make test-assets builds %s; the line's own: about 20 min cold); its testenv's full-API tests run at this line in hack/compat.sh, and the Makefile and suite init writes are the ones step 5b runs at the line of %s. NEWCOMER_ENVTEST_K8S_VERSION=%s runs it here on those binaries; =line builds and runs the line's own", l.Envtest, assets, assets, assets),
		}
	case release == "" || release == "line" || isOwn(release):
		return envtest{
			setup: []string{"make", "-s", "setup-envtest"},
			note:  fmt.Sprintf("its own ENVTEST_K8S_VERSION, %s (the scaffold's Makefile derives it from k8s.io/api %s)", l.Envtest, l.K8s),
			want:  l.Envtest,
		}
	}
	return envtest{
		setup: []string{"make", "-s", "setup-envtest", "ENVTEST_K8S_VERSION=" + release},
		note:  fmt.Sprintf("ENVTEST_K8S_VERSION=%s on make setup-envtest's command line (NEWCOMER_ENVTEST_K8S_VERSION), not the line's own %s (NEWCOMER_ENVTEST_K8S_VERSION=line builds and runs those: about 20 min more a line cold)", release, l.Envtest),
		want:  release,
	}
}

// scaffoldEnvDrop are the variables the scaffold's Makefile reads with ?=:
// from the environment, they would point it at other binaries than the
// ones in its bin/; and the ones the user's Go must not inherit.
var scaffoldEnvDrop = []string{"CONTROLLER_GEN", "ENVTEST", "GOLANGCI_LINT", "LOCALBIN", "KUSTOMIZE", "STATUSPATCH_GEN", "STATUSPATCH_LINT", "STATUSPATCH_VERSION", "KUBEBUILDER_ASSETS", "GOROOT", "STATUSPATCH_E2E"}

// newcomerAt runs the steps at one line.
func (rt *route) newcomerAt(l lines.Line) error {
	rt.line, rt.userGo = l, l.Toolchain
	et := envtestChoice(os.Getenv("NEWCOMER_ENVTEST_K8S_VERSION"), rt.table.Assets(), l)
	cg := os.Getenv("CONTROLLER_GEN")
	if cg == "" {
		cg = filepath.Join(rt.root, "bin", "controller-gen")
	}
	if !executable(cg) {
		return failf("%s not found; run 'make tools' or set CONTROLLER_GEN", cg)
	}
	// The workspace's modules are listed with this machine's Go (the
	// workspace's go line is this repository's); the scaffold's with the
	// line's.
	wsLine, err := wsversions.AtLine(gocmd.Runner{Root: ".", Env: []string{"GOWORK="}, Stdout: rt.r.stdout, Stderr: rt.r.stderr}, rt.root, l.CR, l.K8s)
	if err != nil {
		return err
	}
	if err := rt.userGoInPath(false); err != nil {
		return err
	}
	rt.proxyStep()
	set := append(releaseproxy.Environ(rt.settings),
		"PATH="+filepath.Join(rt.work, "path")+string(os.PathListSeparator)+os.Getenv("PATH"), "GOTOOLCHAIN=path")
	rt.r.env = environ(os.Environ(), scaffoldEnvDrop, set...)
	goVersion, err := rt.r.output("", nil, "go", "env", "GOVERSION")
	if err != nil || goVersion != rt.userGo {
		return failf("go in PATH is %s, want %s", goVersion, rt.userGo)
	}
	n := &newcomerRun{route: rt, et: et, cg: cg, wsLine: wsLine}
	rt.r.step("the scaffold at line %s (controller-runtime %s, k8s.io %s, go %s, %s; step 5's envtest with %s): a kubebuilder v4 layout, reconciler writing status by hand", l.Name, l.CR, l.K8s, l.GoLine(), goVersion, et.note)
	for _, s := range []func() error{n.scaffold, n.managerBefore, n.install, n.init, n.generate, n.fix, n.managerAfter, n.test, n.fullAPI, n.again} {
		if err := s(); err != nil {
			return err
		}
	}
	rt.r.step("ok: docs/kubebuilder.md's steps, as written, on a kubebuilder-shaped scaffold")
	return nil
}
