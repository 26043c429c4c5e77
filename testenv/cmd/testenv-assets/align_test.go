package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// callerJSON is go list -m -json all's output in example.com/op: k8s.io at
// v0.35.4, grpc newer than k8s.io/kubernetes v1.35.4 asks for, one module
// replaced by a folder, one by a fork, one by another version of itself.
const callerJSON = `{"Path": "example.com/op", "Main": true, "Dir": "/src/op"}
{"Path": "k8s.io/apimachinery", "Version": "v0.35.4"}
{"Path": "k8s.io/kube-openapi", "Version": "v0.0.0-20251201000000-aaaaaaaaaaaa"}
{"Path": "google.golang.org/grpc", "Version": "v1.75.1"}
{"Path": "golang.org/x/net", "Version": "v0.38.0"}
{"Path": "example.com/local", "Version": "v1.0.0", "Replace": {"Path": "../local", "Dir": "/src/local"}}
{"Path": "github.com/fork/me", "Version": "v1.0.0", "Replace": {"Path": "github.com/other/me", "Version": "v1.2.0"}}
{"Path": "github.com/pinned/dep", "Version": "v1.5.0", "Replace": {"Path": "github.com/pinned/dep", "Version": "v1.4.0"}}
`

// scratchList is go list -m all in kube-apiserver 1.35.4's scratch module.
const scratchList = `testenv-assets.invalid/kube-apiserver
k8s.io/kubernetes v1.35.4
k8s.io/apimachinery v0.35.4
k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b
google.golang.org/grpc v1.72.1
golang.org/x/net v0.43.0
github.com/fork/me v1.1.0
github.com/other/me v1.3.0
github.com/pinned/dep v1.3.0
`

func TestListCaller(t *testing.T) {
	run := func(_ context.Context, dir string, _ func(string), args ...string) ([]byte, error) {
		if dir != "" || strings.Join(args, " ") != "list -m -json all" {
			t.Errorf("go %s in %q, want go list -m -json all in the current folder", strings.Join(args, " "), dir)
		}
		return []byte(callerJSON), nil
	}
	c, err := listCaller(t.Context(), run)
	if err != nil {
		t.Fatal(err)
	}
	if c.Main != "example.com/op" {
		t.Errorf("main %q", c.Main)
	}
	for path, want := range map[string]string{
		"k8s.io/apimachinery":    "v0.35.4",
		"google.golang.org/grpc": "v1.75.1",
		"github.com/pinned/dep":  "v1.4.0", // its replacement's version: the files compiled
		"example.com/local":      "",       // a folder: the caller's own packages
		"github.com/fork/me":     "",       // another module's files
		"example.com/op":         "",       // the main module
	} {
		if got := c.version(path); got != want {
			t.Errorf("version(%s) = %q, want %q", path, got, want)
		}
	}
	for _, bad := range []string{"", "{not json"} {
		if _, err := listCaller(t.Context(), func(context.Context, string, func(string), ...string) ([]byte, error) {
			return []byte(bad), nil
		}); err == nil {
			t.Errorf("output %q: no error", bad)
		}
	}
}

func TestModuleRelease(t *testing.T) {
	for _, tc := range []struct{ version, want, err string }{
		{"v0.34.1", "1.34.1", ""},
		{"v0.35.10", "1.35.10", ""},
		{"", "", "does not require k8s.io/apimachinery"},
		{"v0.35.0-alpha.1", "", "not a release v0.N.P"},
		{"v0.35.1-0.20250101000000-abcdefabcdef", "", "not a release v0.N.P"},
		{"v1.2.3", "", "not a release v0.N.P"},
	} {
		c := callerModule{Main: "example.com/op"}
		if tc.version != "" {
			c.Modules = []module{{"k8s.io/apimachinery", tc.version}}
		}
		v, err := moduleRelease(c)
		switch {
		case tc.err == "" && (err != nil || v.String() != tc.want):
			t.Errorf("%q: %v, %v; want %s", tc.version, v, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "example.com/op")):
			t.Errorf("%q: error %v, want one naming example.com/op and %q", tc.version, err, tc.err)
		}
	}
}

func TestAlignedRequires(t *testing.T) {
	c, err := listCaller(t.Context(), func(context.Context, string, func(string), ...string) ([]byte, error) {
		return []byte(callerJSON), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	replaced := []string{"k8s.io/apimachinery"}
	join := func(ms []module) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.Path+" "+m.Version)
		}
		return strings.Join(s, "; ")
	}
	// The caller's line: its versions of everything both have, but what the
	// scratch module replaces, k8s.io/kubernetes, forks and folders, and
	// what is the same already.
	got := join(alignedRequires([]byte(scratchList), replaced, c, kubeVersion{35, 4}))
	want := "github.com/pinned/dep v1.4.0; golang.org/x/net v0.38.0; google.golang.org/grpc v1.75.1; k8s.io/kube-openapi v0.0.0-20251201000000-aaaaaaaaaaaa"
	if got != want {
		t.Errorf("same line:\n got %s\nwant %s", got, want)
	}
	// Another line: the Kubernetes project's own modules stay
	// k8s.io/kubernetes's.
	got = join(alignedRequires([]byte(scratchList), replaced, c, kubeVersion{34, 1}))
	want = "github.com/pinned/dep v1.4.0; golang.org/x/net v0.38.0; google.golang.org/grpc v1.75.1"
	if got != want {
		t.Errorf("another line:\n got %s\nwant %s", got, want)
	}
	if out := withRequires("module m\n", nil, "example.com/op"); out != "module m\n" {
		t.Errorf("nothing to require changed the go.mod: %q", out)
	}
}

// Run in a module, the build requires the module's versions of what both
// share, and says so in BUILD-INFO; -align=false and a folder outside any
// module build at k8s.io/kubernetes's own versions.
func TestBuildAlignedWithCaller(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}, caller: callerJSON, scratch: scratchList}
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x")
	if r.code != 0 {
		t.Fatalf("exit %d", r.code)
	}
	goMod := f.goMods["kube-apiserver"]
	for _, s := range []string{"\tgoogle.golang.org/grpc v1.75.1\n", "\tk8s.io/kube-openapi v0.0.0-20251201000000-aaaaaaaaaaaa\n",
		"example.com/op's versions", "\tk8s.io/apimachinery => k8s.io/apimachinery v0.35.4\n"} {
		if !strings.Contains(goMod, s) {
			t.Errorf("kube-apiserver's go.mod lacks %q:\n%s", s, goMod)
		}
	}
	if len(f.builds) != 1 {
		t.Errorf("%d builds, want 1", len(f.builds))
	}
	info, err := os.ReadFile(filepath.Join(root, "1.35.4-"+platform, "BUILD-INFO"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CGO_ENABLED=1", "with example.com/op's versions of 4 modules"} {
		if !strings.Contains(string(info), s) {
			t.Errorf("BUILD-INFO lacks %q:\n%s", s, info)
		}
	}

	for _, tc := range []struct {
		name   string
		f      *fakeGo
		args   []string
		listed bool
	}{
		{"-align=false", &fakeGo{t: t, versions: []string{"v1.35.4"}, caller: callerJSON, scratch: scratchList}, []string{"-align=false"}, false},
		{"no module", &fakeGo{t: t, versions: []string{"v1.35.4"}, scratch: scratchList}, nil, true},
	} {
		root := t.TempDir()
		r := runUse(t, tc.f.run, append(tc.args, "-p", "path", "--bin-dir", root, "1.35.x")...)
		if r.code != 0 || strings.Contains(tc.f.goMods["kube-apiserver"], "'s versions") {
			t.Errorf("%s: exit %d, go.mod:\n%s", tc.name, r.code, tc.f.goMods["kube-apiserver"])
		}
		listed := strings.Contains(strings.Join(tc.f.calls, "\n"), "list -m -json all")
		if listed != tc.listed {
			t.Errorf("%s: the caller's module listed: %v, want %v (%q)", tc.name, listed, tc.listed, tc.f.calls)
		}
		if tc.listed && !strings.Contains(r.stderr, "not sharing compiled packages") {
			t.Errorf("%s: stderr does not say the build shares nothing: %s", tc.name, r.stderr)
		}
	}
}

// A build that fails with the caller's versions is built again with
// k8s.io/kubernetes's own, saying so; the binary is the second build's.
func TestBuildAlignedFallsBack(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}, caller: callerJSON, scratch: scratchList, failAligned: true}
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x")
	if r.code != 0 || r.stdout != filepath.Join(root, "1.35.4-"+platform)+"\n" {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	if len(f.builds) != 2 || !strings.Contains(f.builds[0], "'s versions") || strings.Contains(f.builds[1], "'s versions") {
		t.Errorf("builds:\n%s", strings.Join(f.builds, "\n----\n"))
	}
	for _, s := range []string{"did not build with example.com/op's versions", "undefined: y", "[4/5] kube-apiserver v1.35.4: resolving modules and packages, k8s.io/kubernetes's own versions"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q", s)
		}
	}
	info, err := os.ReadFile(filepath.Join(root, "1.35.4-"+platform, "BUILD-INFO"))
	if err != nil || strings.Contains(string(info), "versions of") {
		t.Errorf("BUILD-INFO names versions the binary was not built with: %v\n%s", err, info)
	}

	// An interrupted aligned build is not built again.
	ctx, cancel := context.WithCancel(t.Context())
	calls := 0
	runner := func(c context.Context, dir string, line func(string), args ...string) ([]byte, error) {
		if args[0] == "build" {
			calls++
			cancel()
			return nil, c.Err()
		}
		return f.run(c, dir, line, args...)
	}
	root = t.TempDir()
	if code := run(ctx, []string{"use", "-p", "path", "--bin-dir", root, "1.35.x"}, new(strings.Builder), new(strings.Builder), runner); code != 1 || calls != 1 {
		t.Errorf("interrupted: exit %d after %d builds, want 1 and 1", code, calls)
	}
}

// VERSION module is the release of the calling module's k8s.io modules.
func TestVersionModule(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.34.1", "v1.35.3", "v1.35.4", "v1.35.5"}, caller: callerJSON, scratch: scratchList}
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "module")
	if r.code != 0 || r.stdout != filepath.Join(root, "1.35.4-"+platform)+"\n" {
		t.Fatalf("exit %d, stdout %q; want 1.35.4, the release of k8s.io/apimachinery v0.35.4", r.code, r.stdout)
	}
	// Cached: the module is listed, nothing else runs.
	f.calls = nil
	r = runUse(t, f.run, "-p", "path", "--bin-dir", root, "module")
	if r.code != 0 || strings.Join(f.calls, "|") != "list -m -json all" {
		t.Errorf("cached: exit %d, go commands %q; want the module's list alone", r.code, f.calls)
	}
	r = runUse(t, f.run, "-i", "-p", "human", "--bin-dir", root, "module")
	if r.code != 0 || !strings.Contains(r.stdout, "Version: 1.35.4\n") {
		t.Errorf("-i: exit %d, stdout %q", r.code, r.stdout)
	}

	for _, tc := range []struct {
		name, caller, want string
	}{
		{"no module", "", "version module: run it in your Go module's folder, or give a version (1.35.x): go: go.mod file not found"},
		{"no k8s.io", `{"Path": "example.com/op", "Main": true}` + "\n", "example.com/op does not require k8s.io/apimachinery"},
		{"pseudo-version", `{"Path": "example.com/op", "Main": true}` + "\n" + `{"Path": "k8s.io/apimachinery", "Version": "v0.36.0-alpha.0.20260101000000-abcdefabcdef"}`,
			"is not a release v0.N.P"},
	} {
		g := &fakeGo{t: t, caller: tc.caller}
		r := runUse(t, g.run, "-p", "path", "--bin-dir", t.TempDir(), "module")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	if _, err := parseQuery("modules"); err == nil {
		t.Error(`parseQuery("modules"): no error`)
	}
}

// A proxy's version list is not all it serves: a release it leaves out is
// asked for by name. VERSION module whose release is not served at all
// builds the newest patch of its line, saying what that costs.
func TestUnlistedRelease(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.3", "v1.35.5"}}
	r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.4")
	if r.code != 0 || r.stdout != filepath.Join(root, "1.35.4-"+platform)+"\n" ||
		!strings.Contains(r.stderr, "leaves out k8s.io/kubernetes v1.35.4, but serves it when asked by name") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// Served neither way: the list's error, and the fetch's.
	r = runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.9")
	if r.code != 1 || !strings.Contains(r.stderr, "unknown version 1.35.9") || !strings.Contains(r.stderr, "asked for by name") {
		t.Errorf("1.35.9: exit %d, stderr %q", r.code, r.stderr)
	}

	// VERSION module at v0.35.2, which the proxy does not serve: 1.35.4,
	// the newest of the line (the fake serves that one's go.mod).
	caller := `{"Path": "example.com/op", "Main": true}` + "\n" + `{"Path": "k8s.io/apimachinery", "Version": "v0.35.2"}` + "\n"
	g := &fakeGo{t: t, versions: []string{"v1.35.3", "v1.35.4"}, caller: caller}
	root = t.TempDir()
	r = runUse(t, g.run, "-p", "path", "--bin-dir", root, "module")
	if r.code != 0 || r.stdout != filepath.Join(root, "1.35.4-"+platform)+"\n" ||
		!strings.Contains(r.stderr, "does not serve k8s.io/kubernetes v1.35.2") || !strings.Contains(r.stderr, "building 1.35.4, the newest of its line") {
		t.Errorf("module: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// etcd's build keeps the etcd project's own modules at the release
// k8s.io/kubernetes asks for, whatever the caller requires: an etcd built
// with a caller's go.etcd.io/etcd/api/v3 v3.7.0 reports 3.7.0 and is not
// the 3.6.5 BUILD-INFO names. Other modules still take the caller's
// versions, and kube-apiserver its etcd client too (a library to it).
func TestBuildEtcdKeepsItsOwnModules(t *testing.T) {
	caller := callerJSON + `{"Path": "go.etcd.io/etcd/server/v3", "Version": "v3.7.0"}
{"Path": "go.etcd.io/etcd/api/v3", "Version": "v3.7.0"}
{"Path": "go.etcd.io/etcd/client/v3", "Version": "v3.7.0"}
{"Path": "go.etcd.io/bbolt", "Version": "v1.4.3"}
`
	scratch := scratchList + `go.etcd.io/etcd/server/v3 v3.6.5
go.etcd.io/etcd/api/v3 v3.6.5
go.etcd.io/etcd/client/v3 v3.6.5
go.etcd.io/bbolt v1.4.2
`
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}, caller: caller, scratch: scratch}
	if r := runUse(t, f.run, "--etcd", "-p", "path", "--bin-dir", root, "1.35.x"); r.code != 0 {
		t.Fatalf("exit %d", r.code)
	}
	etcd := f.goMods["etcd"]
	if !strings.Contains(etcd, "\tgoogle.golang.org/grpc v1.75.1\n") {
		t.Errorf("etcd's go.mod lacks the caller's grpc:\n%s", etcd)
	}
	for _, s := range []string{"go.etcd.io/etcd/server/v3 v3.7.0", "go.etcd.io/etcd/api/v3 v3.7.0", "go.etcd.io/etcd/client/v3 v3.7.0", "go.etcd.io/bbolt v1.4.3"} {
		if strings.Contains(etcd, s) {
			t.Errorf("etcd's go.mod requires the caller's %s:\n%s", s, etcd)
		}
	}
	if apiserver := f.goMods["kube-apiserver"]; !strings.Contains(apiserver, "\tgo.etcd.io/etcd/client/v3 v3.7.0\n") {
		t.Errorf("kube-apiserver's go.mod lacks the caller's etcd client:\n%s", apiserver)
	}
}
