// Command testenv-assets builds the kube-apiserver that testenv's full API
// (testenv.WithFullAPI) runs, and with --etcd the etcd that
// controller-runtime's envtest runs too, from source, through the Go module
// proxy alone, and prints the folder (a KUBEBUILDER_ASSETS for envtest):
//
//	go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use -p path 1.35.x
//	export KUBEBUILDER_ASSETS=$(go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use --etcd -p path 1.35.x)
//
// kube-apiserver comes from the k8s.io/kubernetes module at the requested
// release (its staging modules at their published releases, v0.N.P for
// v1.N.P), etcd from etcd's server module at the version that release's
// go.mod requires. Each is built in a scratch module in the cache, so
// nothing is added to the calling module's go.mod. The result is cached in
// os.UserCacheDir()/statuspatch/testenv-assets/<version>-<goos>-<goarch>/;
// the first build takes minutes, later runs print the folder at once; a
// later --etcd adds etcd to a folder built without it. No
// kube-controller-manager or kubectl is built: envtest needs neither.
//
// testenv-assets warm compiles the packages a module's tests need into the
// Go build cache with progress, so the first go test of a package
// importing testenv is not minutes of silence.
//
// Usage:
//
//	testenv-assets use [-p human|path|env] [-i] [--etcd] [--bin-dir DIR] [-align=false] [VERSION]
//	testenv-assets warm [-race] [-tags TAGS] [PACKAGES]
//
// VERSION is 1.N.P (one release), 1.N.x (the newest patch of a line the
// module proxy serves), module (the release the calling module's k8s.io
// modules come from: k8s.io/apimachinery v0.34.1 is 1.34.1), or left out
// (the newest release served).
//
// Run in your module's folder, use builds so that your tests' first
// compile finds most of the API server's libraries already compiled: in
// your cgo setting, with your module's versions of the modules both need
// (where they are newer than k8s.io/kubernetes's; -align=false leaves them
// out). The k8s.io modules themselves are shared only when kube-apiserver
// is your release (VERSION module). If the build fails with your versions,
// it builds again with k8s.io/kubernetes's own.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

const usage = `testenv-assets use builds the kube-apiserver testenv's full API
(testenv.WithFullAPI) runs, and with --etcd the etcd envtest runs too, from
source through the Go module proxy, and prints the folder (for envtest: the
KUBEBUILDER_ASSETS). testenv-assets warm compiles a module's test
dependencies with progress (testenv-assets warm -h).

Usage:
  testenv-assets use [flags] [VERSION]
  testenv-assets warm [-race] [-tags TAGS] [PACKAGES]

VERSION is 1.N.P (one release, e.g. 1.35.4), 1.N.x (the newest patch of a
line the module proxy serves, e.g. 1.35.x), module (the release of this
module's k8s.io modules: k8s.io/apimachinery v0.34.1 is 1.34.1), or left
out (the newest release served). The first build of a version takes
minutes; it is cached in
%s
and later runs print the folder at once. Run in your module's folder with
VERSION module, the build shares most of its compiled packages with your
tests' first compile (same cgo setting, your versions of shared modules).

Flags of use:
`

// run is the command; runner, when not nil, replaces the go command (tests).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, runner runFunc) int {
	cacheRoot := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cacheRoot = filepath.Join(dir, "statuspatch", "testenv-assets")
	}
	fs := flag.NewFlagSet("testenv-assets use", flag.ContinueOnError)
	fs.SetOutput(stderr)
	printMode := fs.String("p", "human", "what to print: human (version, platform, path), path (the folder alone, for KUBEBUILDER_ASSETS=$(...)), or env (export KUBEBUILDER_ASSETS=...)")
	installedOnly := fs.Bool("i", false, "use only what is cached: never ask the module proxy or build")
	binDir := fs.String("bin-dir", cacheRoot, "the cache folder")
	align := fs.Bool("align", true, "build with the calling module's versions of the modules kube-apiserver shares with it (where newer than k8s.io/kubernetes's), so the build cache shares their compiled packages with its tests; false: k8s.io/kubernetes's own versions")
	etcd := fs.Bool("etcd", false, "build etcd too, for controller-runtime's envtest (KUBEBUILDER_ASSETS, testenv's envtest backend); testenv's full API (WithFullAPI) needs kube-apiserver alone")
	fs.Usage = func() {
		fmt.Fprintf(stderr, usage, cacheRoot)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fs.Usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "warm" {
		if runner == nil {
			runner = envRunner("go")
		}
		return warm(ctx, "", args[1:], stderr, runner, 15*time.Second)
	}
	if args[0] != "use" {
		fmt.Fprintf(stderr, "testenv-assets: unknown command %q; the commands are use and warm (testenv-assets help)\n", args[0])
		return 2
	}
	// Flags may come before or after the version, as setup-envtest takes them.
	var positional []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	if len(positional) > 1 {
		fmt.Fprintf(stderr, "testenv-assets: one version, not %q\n", positional)
		return 2
	}
	switch *printMode {
	case "human", "path", "env":
	default:
		fmt.Fprintf(stderr, "testenv-assets: -p %q: want human, path or env\n", *printMode)
		return 2
	}
	if *binDir == "" {
		fmt.Fprintln(stderr, "testenv-assets: no user cache folder (os.UserCacheDir failed); pass --bin-dir")
		return 2
	}
	version := ""
	if len(positional) == 1 {
		version = positional[0]
	}
	q, err := parseQuery(version)
	if err != nil {
		fmt.Fprintf(stderr, "testenv-assets: %v\n", err)
		return 2
	}
	goos, goarch := runtime.GOOS, runtime.GOARCH
	callerRun := runner // the caller's module is listed in the caller's environment
	if runner == nil {
		runner, callerRun = goRunner("go", goos, goarch), envRunner("go")
	}
	var (
		caller    callerModule
		callerErr error
		listed    bool
	)
	callerOf := func(ctx context.Context) (callerModule, error) {
		if !listed {
			caller, callerErr = listCaller(ctx, callerRun)
			listed = true
		}
		return caller, callerErr
	}
	if q.Module {
		c, err := callerOf(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "testenv-assets: version module: run it in your Go module's folder, or give a version (1.35.x): %v\n", err)
			return 1
		}
		v, err := moduleRelease(c)
		if err != nil {
			fmt.Fprintf(stderr, "testenv-assets: %v\n", err)
			return 1
		}
		q = query{Minor: v.Minor, Patch: v.Patch, Module: true, text: v.String() + " (the release of " + c.Main + "'s k8s.io/apimachinery)"}
	}
	b := &builder{
		root: *binDir, want: wanted(*etcd), goos: goos, goarch: goarch,
		run: runner, log: stderr, tick: 15 * time.Second, now: time.Now,
		staleBuildAge: 24 * time.Hour,
	}
	if *align {
		b.caller = callerOf
	}
	v, dir, err := use(ctx, b, q, *installedOnly)
	if err != nil {
		fmt.Fprintf(stderr, "testenv-assets: %v\n", err)
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "testenv-assets: interrupted; nothing was added to %s\n", b.root)
		}
		return 1
	}
	switch *printMode {
	case "path":
		fmt.Fprintln(stdout, dir)
	case "env":
		fmt.Fprintf(stdout, "export KUBEBUILDER_ASSETS='%s'\n", strings.ReplaceAll(dir, "'", `'\''`))
	default:
		fmt.Fprintf(stdout, "Version: %s\nOS/Arch: %s/%s\nPath: %s\n", v, goos, goarch, dir)
	}
	return 0
}

// use finds or builds what q asks for. One release already in the cache
// costs nothing: no go command, no network. A line (1.N.x) or the newest
// release asks the module proxy which release that is; when it cannot be
// asked, the newest cached build that fits is used, with a warning.
func use(ctx context.Context, b *builder, q query, installedOnly bool) (kubeVersion, string, error) {
	if !q.Line && !q.Latest {
		v := kubeVersion{Minor: q.Minor, Patch: q.Patch}
		if dir := b.dir(v); b.complete(dir) {
			return v, dir, nil
		}
	}
	if installedOnly {
		if v, ok := b.newestCached(q); ok {
			return v, b.dir(v), nil
		}
		return kubeVersion{}, "", fmt.Errorf("no build of %s with %s in %s (-i uses only the cache); run without -i to build it",
			q, strings.Join(b.want, " and "), b.root)
	}
	tags, err := b.servedVersions(ctx)
	if err != nil {
		if v, ok := b.newestCached(q); ok && ctx.Err() == nil {
			b.logf("cannot ask the module proxy which release %s is, using the newest cached one, %s: %v", q, v, err)
			return v, b.dir(v), nil
		}
		return kubeVersion{}, "", err
	}
	v, err := resolve(q, tags)
	if err != nil && !q.Line && !q.Latest {
		v, err = unlisted(ctx, b, q, tags, err)
	}
	if err != nil {
		return kubeVersion{}, "", err
	}
	dir, err := b.build(ctx, v)
	if err != nil {
		return kubeVersion{}, "", err
	}
	return v, dir, nil
}

// unlisted answers for one release the proxy's version list leaves out
// (listErr): a list is not the proxy's whole content, so the release is
// asked for by name. VERSION module, whose release is served by neither,
// takes the newest patch of its line instead, saying what that costs.
func unlisted(ctx context.Context, b *builder, q query, tags []string, listErr error) (kubeVersion, error) {
	v := kubeVersion{Minor: q.Minor, Patch: q.Patch}
	dir, err := os.MkdirTemp("", "testenv-assets-list-")
	if err != nil {
		return kubeVersion{}, err
	}
	defer os.RemoveAll(dir)
	_, fetchErr := b.kubeGoModOf(ctx, dir, v)
	if fetchErr == nil {
		b.logf("the module proxy's version list leaves out k8s.io/kubernetes %s, but serves it when asked by name", v.Tag())
		return v, nil
	}
	if ctx.Err() != nil || !q.Module {
		return kubeVersion{}, fmt.Errorf("%w; asked for by name: %w", listErr, fetchErr)
	}
	line, err := resolve(query{Minor: q.Minor, Line: true, text: fmt.Sprintf("1.%d.x", q.Minor)}, tags)
	if err != nil {
		return kubeVersion{}, fmt.Errorf("%w; asked for by name: %w", listErr, fetchErr)
	}
	b.logf("the module proxy does not serve k8s.io/kubernetes %s (%v); building %s, the newest of its line, "+
		"whose k8s.io packages differ from this module's (only other modules' compiled packages are shared)", v.Tag(), fetchErr, line)
	return line, nil
}
