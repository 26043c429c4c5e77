package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var platform = runtime.GOOS + "-" + runtime.GOARCH

// fakeCache makes a cache folder per version, each with executable
// kube-apiserver and etcd, as a finished --etcd build leaves it.
func fakeCache(t *testing.T, root string, versions ...string) {
	t.Helper()
	for _, v := range versions {
		dir := filepath.Join(root, v+"-"+platform)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range wanted(true) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// noGo fails the test if the go command runs.
func noGo(t *testing.T) runFunc {
	return func(_ context.Context, _ string, _ func(string), args ...string) ([]byte, error) {
		t.Errorf("the go command ran: go %s", strings.Join(args, " "))
		return nil, errors.New("no go command in this test")
	}
}

type result struct {
	code           int
	stdout, stderr string
}

func runUse(t *testing.T, runner runFunc, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"use"}, args...), &stdout, &stderr, runner)
	t.Logf("testenv-assets use %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	return result{code, stdout.String(), stderr.String()}
}

// A release already in the cache costs nothing: no go command runs, only
// the path is printed.
func TestCacheHitRunsNoGoCommand(t *testing.T) {
	root := t.TempDir()
	fakeCache(t, root, "1.35.4")
	want := filepath.Join(root, "1.35.4-"+platform)
	for _, args := range [][]string{
		{"-p", "path", "--bin-dir", root, "1.35.4"},
		{"--bin-dir", root, "v1.35.4", "-p", "path"}, // flags after the version
	} {
		r := runUse(t, noGo(t), args...)
		if r.code != 0 || r.stdout != want+"\n" || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 0 and %q alone", args, r.code, r.stdout, r.stderr, want)
		}
	}
	r := runUse(t, noGo(t), "-p", "env", "--bin-dir", root, "1.35.4")
	if r.stdout != "export KUBEBUILDER_ASSETS='"+want+"'\n" {
		t.Errorf("-p env: %q", r.stdout)
	}
	r = runUse(t, noGo(t), "--bin-dir", root, "1.35.4")
	if !strings.Contains(r.stdout, "Version: 1.35.4\n") || !strings.Contains(r.stdout, "Path: "+want+"\n") {
		t.Errorf("-p human: %q", r.stdout)
	}
}

// -i picks the newest cached build of the line and never asks the proxy;
// unfinished builds and damaged folders are not builds.
func TestInstalledOnly(t *testing.T) {
	root := t.TempDir()
	fakeCache(t, root, "1.34.4", "1.35.2", "1.35.10", "1.36.1")
	fakeCache(t, root, "1.37.0")
	if err := os.Remove(filepath.Join(root, "1.37.0-"+platform, "etcd")); err != nil {
		t.Fatal(err)
	}
	building := filepath.Join(root, ".building-1.38.0-"+platform+"-123")
	if err := os.MkdirAll(building, 0o755); err != nil {
		t.Fatal(err)
	}
	fakeCache(t, building, "x")
	fakeCache(t, root, "1.35.11-windows-arm64") // another platform's folder name
	for _, tc := range []struct{ etcd, q, want string }{
		{"--etcd", "1.35.x", "1.35.10"}, // 10 > 2 as numbers
		{"--etcd", "1.34", "1.34.4"},
		{"--etcd", "1.35.2", "1.35.2"},
		{"--etcd", "", "1.36.1"},       // the newest build with etcd, not 1.37.0 without it
		{"--etcd=false", "", "1.37.0"}, // the full API needs kube-apiserver alone
		{"--etcd=false", "1.37.x", "1.37.0"},
	} {
		r := runUse(t, noGo(t), "-i", tc.etcd, "-p", "path", "--bin-dir", root, tc.q)
		if want := filepath.Join(root, tc.want+"-"+platform) + "\n"; r.code != 0 || r.stdout != want {
			t.Errorf("-i %s %q: exit %d, stdout %q, want %q", tc.etcd, tc.q, r.code, r.stdout, want)
		}
	}
	for _, q := range []string{"1.37.x", "1.38.x", "1.33.x"} {
		r := runUse(t, noGo(t), "-i", "--etcd", "-p", "path", "--bin-dir", root, q)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "no build of "+q+" with kube-apiserver and etcd") {
			t.Errorf("-i --etcd %q: exit %d, stdout %q, stderr %q; want exit 1 and no build", q, r.code, r.stdout, r.stderr)
		}
	}
}

// fakeGo stands in for the go command: it serves the version list and
// k8s.io/kubernetes v1.35.4's go.mod from testdata, and "builds" by writing
// the -o file. It records every call and the scratch go.mod each build saw.
type fakeGo struct {
	t        *testing.T
	versions []string
	fail     map[string]error // by the output's base name
	listErr  error
	// caller is go list -m -json all's output in the calling module; ""
	// answers as outside any module.
	caller string
	// scratch is go list -m all's output in a scratch module ("path
	// version" lines); "" is k8s.io/kubernetes alone.
	scratch string
	// failAligned fails a build whose go.mod holds the caller's versions.
	failAligned bool

	mu     sync.Mutex
	calls  []string
	goMods map[string]string // by the output's base name: the last build's
	builds []string          // every build's go.mod, in order
}

func (f *fakeGo) run(_ context.Context, dir string, line func(string), args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, strings.Join(args, " "))
	switch {
	case strings.Join(args, " ") == "list -m -json all":
		if f.caller == "" {
			return nil, errors.New("go: go.mod file not found in current directory or any parent directory")
		}
		return []byte(f.caller), nil
	case len(args) == 5 && args[0] == "list" && args[1] == "-m" && args[2] == "-f" && args[4] == "all":
		if f.scratch == "" {
			return []byte("testenv-assets.invalid/kube-apiserver\nk8s.io/kubernetes v1.35.4\n"), nil
		}
		return []byte(f.scratch), nil
	case strings.Join(args, " ") == "env CGO_ENABLED":
		return []byte("1\n"), nil
	case len(args) == 5 && args[0] == "list" && args[2] == "-versions":
		if f.listErr != nil {
			return nil, f.listErr
		}
		return json.Marshal(map[string]any{"Path": "k8s.io/kubernetes", "Versions": f.versions})
	case len(args) == 4 && args[0] == "list" && args[1] == "-m":
		if args[3] != "k8s.io/kubernetes@v1.35.4" {
			return nil, fmt.Errorf("go list %s: no such version", args[3])
		}
		abs, err := filepath.Abs("testdata/kubernetes-v1.35.4.mod")
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]string{"Path": "k8s.io/kubernetes", "Version": "v1.35.4", "GoMod": abs})
	case args[0] == "list" && args[1] == "-deps":
		if line != nil {
			line("go: downloading example.com/mod v1.0.0")
		}
		return []byte("fmt\nexample.com/a\nexample.com/b\n"), nil
	case args[0] == "build":
		out := args[3]
		name := filepath.Base(out)
		goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return nil, err
		}
		if f.goMods == nil {
			f.goMods = map[string]string{}
		}
		f.goMods[name] = string(goMod)
		f.builds = append(f.builds, string(goMod))
		if f.failAligned && strings.Contains(string(goMod), "'s versions, so the build cache shares") {
			return nil, errors.New("go build: exit status 1; the go command's last output:\nvendor/x.go:1: undefined: y")
		}
		if line != nil {
			line("example.com/a")
			line("example.com/b")
		}
		if err := os.WriteFile(out, []byte("half a binary"), 0o755); err != nil {
			return nil, err
		}
		if err := f.fail[name]; err != nil {
			return nil, err
		}
		return nil, nil
	}
	f.t.Errorf("unexpected go %s", strings.Join(args, " "))
	return nil, errors.New("unexpected")
}

// A line is resolved through the proxy's version list, built once into the
// cache with the scratch go.mod, kube-apiserver alone (the full API's
// need), and the second run builds nothing.
func TestBuildThenCacheHit(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: servedTags[:15]} // up to v1.35.4
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x")
	want := filepath.Join(root, "1.35.4-"+platform)
	if r.code != 0 || r.stdout != want+"\n" {
		t.Fatalf("exit %d, stdout %q; want %q", r.code, r.stdout, want)
	}
	for _, s := range []string{"building kube-apiserver 1.35.4 from source", "takes minutes the first time", "[1/3] reading k8s.io/kubernetes v1.35.4's go.mod",
		"[3/3] kube-apiserver v1.35.4: compiling", "built kube-apiserver v1.35.4 in"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q", s)
		}
	}
	if m := missing(want, wanted(false)); len(m) != 0 {
		t.Errorf("%s is not a complete build", want)
	}
	if info, err := os.Stat(want); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("build folder: %v, mode %v; want 0755", err, info.Mode())
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want the one build folder: %v", len(entries), entries)
	}
	inner, _ := os.ReadDir(want)
	var names []string
	for _, e := range inner {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "BUILD-INFO kube-apiserver" {
		t.Errorf("build folder holds %q, want BUILD-INFO kube-apiserver (no etcd, no scratch modules)", names)
	}
	if !strings.Contains(f.goMods["kube-apiserver"], "\tk8s.io/client-go => k8s.io/client-go v0.35.4\n") {
		t.Errorf("kube-apiserver was built in:\n%s", f.goMods["kube-apiserver"])
	}
	if _, ok := f.goMods["etcd"]; ok {
		t.Errorf("etcd was built without --etcd")
	}
	var apiserverBuild string
	for _, c := range f.calls {
		if strings.HasPrefix(c, "build") && strings.HasSuffix(c, apiserverPkg) {
			apiserverBuild = c
		}
	}
	if !strings.Contains(apiserverBuild, "-X k8s.io/component-base/version.gitVersion=v1.35.4") {
		t.Errorf("kube-apiserver's build does not stamp its version: %q", apiserverBuild)
	}

	// Again: the line is asked of the proxy, nothing is built.
	f.calls = nil
	r = runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x")
	if r.code != 0 || r.stdout != want+"\n" || len(f.calls) != 1 || r.stderr != "" {
		t.Errorf("second run: exit %d, stdout %q, stderr %q, go commands %q; want the path after one version list", r.code, r.stdout, r.stderr, f.calls)
	}
	// The release by name: not even the proxy.
	r = runUse(t, noGo(t), "-p", "path", "--bin-dir", root, "1.35.4")
	if r.code != 0 || r.stdout != want+"\n" {
		t.Errorf("by release: exit %d, stdout %q", r.code, r.stdout)
	}
}

// A failed build says which and shows the go command's output, exits 1,
// prints nothing on stdout, and leaves nothing in the cache: not the
// binary built before the failure, not the half-written one.
func TestBuildFailureLeavesNothing(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}, fail: map[string]error{
		"etcd": errors.New("go build: exit status 1; the go command's last output:\nserver/x.go:1: undefined: y"),
	}}
	r := runUse(t, f.run, "--etcd", "-p", "path", "--bin-dir", root, "1.35.x")
	if r.code != 1 || r.stdout != "" {
		t.Errorf("exit %d, stdout %q; want 1 and nothing", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "building etcd v3.6.5 (go.etcd.io/etcd/server/v3): go build: exit status 1") ||
		!strings.Contains(r.stderr, "undefined: y") {
		t.Errorf("stderr does not name the failed build and its output: %s", r.stderr)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("the failed build left %v in the cache", entries)
	}
	// A later run builds again rather than taking anything as done.
	f.fail = nil
	if r := runUse(t, f.run, "--etcd", "-p", "path", "--bin-dir", root, "1.35.x"); r.code != 0 {
		t.Errorf("the build after a failure: exit %d", r.code)
	}
}

// Errors exit 1 (2 for usage) and say what is wrong.
func TestErrors(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: servedTags}
	for _, tc := range []struct {
		args    []string
		code    int
		wantErr string
	}{
		{[]string{"1.35.9"}, 1, "unknown version 1.35.9"},
		{[]string{"1.99.x"}, 1, "no such line"},
		{[]string{"1.35.y"}, 2, "want 1.N.P"},
		{[]string{"-p", "yaml", "1.35.x"}, 2, "want human, path or env"},
		{[]string{"1.35.x", "1.34.x"}, 2, "one version"},
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
	} {
		r := runUse(t, f.run, append([]string{"--bin-dir", root}, tc.args...)...)
		if r.code != tc.code || r.stdout != "" || !strings.Contains(r.stderr, tc.wantErr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.wantErr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"fetch"}, &stdout, &stderr, f.run); code != 2 || !strings.Contains(stderr.String(), "unknown command") {
		t.Errorf("fetch: exit %d, %q", code, stderr.String())
	}
}

// Without the proxy, a line falls back to the newest cached build of it,
// saying so; with nothing cached, the proxy's error is the error.
func TestProxyUnreachable(t *testing.T) {
	root := t.TempDir()
	fakeCache(t, root, "1.35.2")
	f := &fakeGo{t: t, listErr: errors.New("go list -m -versions: dial tcp: connection refused")}
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x")
	if r.code != 0 || r.stdout != filepath.Join(root, "1.35.2-"+platform)+"\n" || !strings.Contains(r.stderr, "using the newest cached one, 1.35.2") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.36.x")
	if r.code != 1 || !strings.Contains(r.stderr, "connection refused") {
		t.Errorf("nothing cached: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Unfinished builds a killed run left are removed once they are old; a
// recent one may be another run's and stays.
func TestRemoveStale(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, ".building-1.35.4-"+platform+"-1")
	recent := filepath.Join(root, ".building-1.35.4-"+platform+"-2")
	for _, d := range []string{old, recent} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(old, time.Now().Add(-48*time.Hour), time.Now().Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	b := &builder{root: root, now: time.Now, staleBuildAge: 24 * time.Hour}
	b.removeStale()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("%s stayed: %v", old, err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("%s was removed: %v", recent, err)
	}
}

// The real go command's failure carries its output's tail.
func TestGoRunnerFailureTail(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/broken\n\ngo 1.24\n",
		"main.go": "package main\n\nfunc main() { undefinedName() }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	_, err := goRunner("go", runtime.GOOS, runtime.GOARCH)(t.Context(), dir, func(s string) { lines = append(lines, s) }, "build", "-o", os.DevNull, ".")
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedName") || !strings.Contains(err.Error(), "the go command's last output") {
		t.Errorf("error %v, want one with the compiler's message", err)
	}
	if len(lines) == 0 {
		t.Error("no stderr lines were passed on")
	}
	// The caller's cgo setting, whichever it is: its go test compiles in it.
	for _, cgo := range []string{"0", "1"} {
		t.Setenv("CGO_ENABLED", cgo)
		out, err := goRunner("go", runtime.GOOS, runtime.GOARCH)(t.Context(), dir, nil, "env", "GOWORK", "GOFLAGS", "CGO_ENABLED")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Fields(string(out)); strings.Join(got, " ") != "off -mod=mod "+cgo {
			t.Errorf("CGO_ENABLED=%s: go env GOWORK GOFLAGS CGO_ENABLED = %q, want off -mod=mod %s", cgo, got, cgo)
		}
	}
}

// An interrupted build says so and leaves nothing in the cache.
func TestInterrupted(t *testing.T) {
	root := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}}
	runner := func(c context.Context, dir string, line func(string), args ...string) ([]byte, error) {
		if args[0] == "build" && strings.HasSuffix(args[len(args)-1], apiserverPkg) {
			cancel() // Ctrl-C while kube-apiserver compiles
			return nil, fmt.Errorf("go build ... %s: interrupted (%w)", apiserverPkg, c.Err())
		}
		return f.run(c, dir, line, args...)
	}
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"use", "-p", "path", "--bin-dir", root, "1.35.x"}, &stdout, &stderr, runner)
	if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "interrupted; nothing was added to "+root) {
		t.Errorf("exit %d, stdout %q, stderr %s", code, stdout.String(), stderr.String())
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("the interrupted build left %v in the cache", entries)
	}
}
