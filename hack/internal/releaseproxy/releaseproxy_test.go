package releaseproxy

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/modproxy"
)

// The go command's environment: the proxy first, then the module cache's
// downloads, then the caller's proxy; the caller's GOFLAGS kept, with
// -modcacherw added; GODEBUG not touched (the module index stays on:
// index.go).
func TestEnv(t *testing.T) {
	got := Env("https://proxy.golang.org,direct", "/c/mod", "/w/proxy", "-mod=mod")
	want := []Setting{
		{"GOMODCACHE", "/c/mod"},
		{"GOWORK", "off"},
		{"GOPROXY", "file:///w/proxy,file:///c/mod/cache/download,https://proxy.golang.org,direct"},
		{"GONOSUMDB", "github.com/statuspatch/statuspatch"},
		{"GOFLAGS", "-mod=mod -modcacherw"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Env =\n%v\nwant\n%v", got, want)
	}
	if g := Env("off", "/m", "/p", ""); g[4].Value != " -modcacherw" {
		t.Errorf("Env with no GOFLAGS: %v", g)
	}
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			rel += "/"
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// writeTree writes files (path: text) under dir, then makes every module
// folder (a name with "@") and what it holds read-only, as the go command
// leaves an extracted module (its parent folders and downloads writable).
func writeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, text := range tree {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.Contains(name, "@") && !strings.HasPrefix(name, "cache/") {
			mode = 0o444
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		if err == nil && d.IsDir() && strings.Contains(rel, "@") && !strings.HasPrefix(rel, "cache") {
			return os.Chmod(p, 0o555)
		}
		return err
	})
	t.Cleanup(func() {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
	})
}

// ours is this repository's modules at v0.9.0 in a module cache, extracted
// (read-only) and downloaded, as a proxy serving them leaves them.
var ours = map[string]string{
	"github.com/statuspatch/statuspatch@v0.9.0/go.mod":                        "module github.com/statuspatch/statuspatch\n",
	"github.com/statuspatch/statuspatch@v0.9.0/patcher/patcher.go":            "package patcher\n",
	"github.com/statuspatch/statuspatch/testenv@v0.9.0/testenv.go":            "package testenv\n",
	"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.info":        "{}",
	"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.mod":         "module github.com/statuspatch/statuspatch\n",
	"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.zip":         "zip",
	"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.ziphash":     "h1:x",
	"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.lock":        "",
	"cache/download/github.com/statuspatch/statuspatch/testenv/@v/v0.9.0.mod": "module github.com/statuspatch/statuspatch/testenv\n",
	"cache/download/github.com/statuspatch/statuspatch/testenv/@v/v0.9.0.zip": "zip",
	"cache/download/github.com/statuspatch/statuspatch/testenv/@v/list":       "v0.9.0\n",
}

// servedOurs is what a proxy of ours at v0.9.0 served.
var servedOurs = []string{"github.com/statuspatch/statuspatch@v0.9.0", "github.com/statuspatch/statuspatch/testenv@v0.9.0"}

// A module cache shared with other projects: the versions of ours a proxy
// served (v0.9.0) go, extracted (read-only) and downloaded, with their
// folders left empty; what it did not serve stays: another version of
// ours (a published release a project requires, another checkout's
// build), in the same folders and the same download list, a version whose
// name starts with the served one's, another owner whose name starts with
// ours, another module of the same name elsewhere, a file beside.
func TestDropDropsWhatItServedOnly(t *testing.T) {
	cache := t.TempDir()
	tree := map[string]string{
		"github.com/statuspatch/statuspatch@v0.8.0/go.mod":                           "module github.com/statuspatch/statuspatch\n",
		"github.com/statuspatch/statuspatch@v0.9.0-rc.1/go.mod":                      "module github.com/statuspatch/statuspatch\n",
		"cache/download/github.com/statuspatch/statuspatch/@v/v0.8.0.mod":            "module github.com/statuspatch/statuspatch\n",
		"cache/download/github.com/statuspatch/statuspatch/@v/v0.8.0.zip":            "zip",
		"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0-rc.1.mod":       "module github.com/statuspatch/statuspatch\n",
		"cache/download/github.com/statuspatch/statuspatch/@v/list":                  "v0.8.0\nv0.9.0-rc.1\nv0.9.0\n",
		"github.com/statuspatchx/other@v1.0.0/go.mod":                                "module github.com/statuspatchx/other\n",
		"github.com/other/statuspatch@v0.9.0/go.mod":                                 "module github.com/other/statuspatch\n",
		"cache/download/github.com/statuspatchx/other/@v/list":                       "v1.0.0\n",
		"cache/download/github.com/other/statuspatch/@v/v0.9.0.mod":                  "module github.com/other/statuspatch\n",
		"golang.org/x/mod@v0.9.0/go.mod":                                             "module golang.org/x/mod\n",
		"github.com/statuspatch.txt":                                                 "a file beside\n",
		"cache/download/sumdb/sum.golang.org/lookup/github.com/statuspatch/x@v0.9.0": "sum",
	}
	writeTree(t, cache, tree)
	kept := files(t, cache)
	writeTree(t, cache, ours)
	c := Caches{ModCache: cache, Served: servedOurs}
	if err := Drop(c); err != nil {
		t.Fatal(err)
	}
	if got := files(t, cache); !slices.Equal(got, kept) {
		t.Errorf("after Drop:\n%s\nwant what was there before v0.9.0 was served:\n%s", strings.Join(got, "\n"), strings.Join(kept, "\n"))
	}
	list, err := os.ReadFile(filepath.Join(cache, "cache", "download", "github.com", "statuspatch", "statuspatch", "@v", "list"))
	if want := "v0.8.0\nv0.9.0-rc.1\n"; err != nil || string(list) != want {
		t.Errorf("the download list after Drop: %q, %v; want %q", list, err, want)
	}
	// Nothing left to drop is no error.
	if err := Drop(c); err != nil {
		t.Errorf("second Drop: %v", err)
	}
}

// With only what it served in the cache, Drop leaves no folder of ours;
// a served module it cannot name is an error, nothing dropped.
func TestDropLeavesNoEmptyFolders(t *testing.T) {
	cache := t.TempDir()
	writeTree(t, cache, ours)
	if err := Drop(Caches{ModCache: cache, Served: []string{"github.com/statuspatch/statuspatch"}}); err == nil {
		t.Error("Drop of a served module without a version: no error")
	}
	if err := Drop(Caches{ModCache: cache, Served: servedOurs}); err != nil {
		t.Fatal(err)
	}
	if got, want := files(t, cache), []string{"./", "cache/", "cache/download/"}; !slices.Equal(got, want) {
		t.Errorf("after Drop: %v, want %v", got, want)
	}
}

func TestCacheDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"STATUSPATCH_INSTALL_CACHE": "/s", "XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/s"},
		{map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/statuspatch-install-test"},
		{map[string]string{"HOME": "/h"}, "/h/.cache/statuspatch-install-test"},
	} {
		got, err := CacheDir(func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("CacheDir(%v) = %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := CacheDir(func(string) string { return "" }); err == nil {
		t.Error("CacheDir with no HOME: no error")
	}
}

// repoOfPublished is a git repository holding a go.mod in each published
// folder, the nested ones requiring nothing.
func repoOfPublished(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	for _, dir := range modproxy.Published {
		p := Module
		if dir != "." {
			p += "/" + dir
		}
		if err := os.MkdirAll(filepath.Join(repo, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, dir, "go.mod"), []byte("module "+p+"\n\ngo 1.26.0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}

// Use drops, from the module cache the go command names, the copies of
// the versions it serves (an earlier build of v0.9.0) and their module
// index, for the caller's Go and every toolchain in the module cache;
// another version of ours (v0.8.0) and its index stay; it writes the proxy
// afresh (an earlier version's files gone) and returns the environment
// for it and what it served.
func TestUse(t *testing.T) {
	repo, work, cache, gocache := repoOfPublished(t), t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, cache, map[string]string{
		"github.com/statuspatch/statuspatch@v0.8.0/go.mod":         "module github.com/statuspatch/statuspatch\n",
		"github.com/statuspatch/statuspatch@v0.9.0/go.mod":         "stale\n",
		"golang.org/x/mod@v0.9.0/go.mod":                           "module golang.org/x/mod\n",
		"golang.org/toolchain@v0.0.1-gotest-b.linux-amd64/VERSION": "gotest-b\n",
	})
	stale := filepath.Join(work, "proxy", "stale")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	entry := func(v, dir string) string {
		return IndexEntry(gocache, v, filepath.Join(cache, filepath.FromSlash(dir)))
	}
	dropped := []string{
		entry("gotest-a", "github.com/statuspatch/statuspatch@v0.9.0"),
		entry("gotest-b", "github.com/statuspatch/statuspatch@v0.9.0"),
		entry("gotest-a", "github.com/statuspatch/statuspatch/testenv@v0.9.0"),
		entry("gotest-b", "github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.9.0"),
	}
	kept := []string{
		entry("gotest-a", "golang.org/x/mod@v0.9.0"),
		entry("gotest-a", "github.com/statuspatch/statuspatch@v0.8.0"),
		entry("gotest-c", "github.com/statuspatch/statuspatch/testenv@v0.9.0"), // no such toolchain here
	}
	for _, f := range append(append([]string(nil), dropped...), kept...) {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("v1 x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fake := &gocmd.Fake{Answer: func(c gocmd.Cmd) (string, error) {
		return "https://up.example\n" + cache + "\n" + gocache + "\ngotest-a\n", nil
	}}
	var listing strings.Builder
	env, caches, err := Proxy{Repo: repo, Version: "v0.9.0", Work: work, Listing: &listing,
		Getenv: func(k string) string { return map[string]string{"GOFLAGS": "-x", "GODEBUG": "x=1"}[k] }}.Use(fake)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"(cd . && GOWORK=off go env GOPROXY GOMODCACHE GOCACHE GOVERSION)"}; !slices.Equal(fake.Ran, want) {
		t.Errorf("ran %q, want %q", fake.Ran, want)
	}
	if want := Env("https://up.example", cache, filepath.Join(work, "proxy"), "-x"); !slices.Equal(env, want) {
		t.Errorf("env = %v, want %v", env, want)
	}
	if want := (Caches{ModCache: cache, GoCache: gocache, GoVersions: []string{"gotest-a", "gotest-b"}}); caches.ModCache != want.ModCache || caches.GoCache != want.GoCache || !slices.Equal(caches.GoVersions, want.GoVersions) {
		t.Errorf("caches = %+v, want %+v", caches, want)
	}
	if got := files(t, cache); !slices.Contains(got, "golang.org/x/mod@v0.9.0/go.mod") || !slices.Contains(got, "github.com/statuspatch/statuspatch@v0.8.0/go.mod") || slices.Contains(got, "github.com/statuspatch/statuspatch@v0.9.0/") {
		t.Errorf("module cache after Use: %v", got)
	}
	if len(caches.Served) != len(modproxy.Published) || !slices.Contains(caches.Served, "github.com/statuspatch/statuspatch/testenv@v0.9.0") {
		t.Errorf("Use served %v, want the %d published modules at v0.9.0", caches.Served, len(modproxy.Published))
	}
	for _, f := range dropped {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("module index entry %s is still there", f)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("module index entry %s was dropped: %v", f, err)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the earlier proxy's files are still there")
	}
	if _, err := os.Stat(filepath.Join(work, "proxy", "github.com", "statuspatch", "statuspatch", "testenv", "@v", "v0.9.0.zip")); err != nil {
		t.Errorf("no testenv zip in the proxy: %v", err)
	}
	if n := strings.Count(listing.String(), "@v0.9.0\n"); n != len(modproxy.Published) {
		t.Errorf("listing has %d modules, want %d:\n%s", n, len(modproxy.Published), listing.String())
	}
}
