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

// writeTree writes files (path: text) under dir, then makes every folder
// read-only as the go command leaves the module cache.
func writeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, text := range tree {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != dir {
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

// A module cache holding this repository's modules beside others: Drop
// removes this repository's extracted modules and downloads, read-only as
// the go command leaves them, and nothing else (an owner whose name starts
// with ours, another module of the same name elsewhere, a file beside).
func TestDropDropsOursOnly(t *testing.T) {
	cache := t.TempDir()
	writeTree(t, cache, map[string]string{
		"github.com/statuspatch/statuspatch@v0.9.0/go.mod":                      "module github.com/statuspatch/statuspatch\n",
		"github.com/statuspatch/statuspatch/testenv@v0.9.0/testenv.go":          "package testenv\n",
		"cache/download/github.com/statuspatch/statuspatch/@v/list":             "v0.9.0\n",
		"cache/download/github.com/statuspatch/statuspatch/@v/v0.9.0.zip":       "zip",
		"github.com/statuspatchx/other@v1.0.0/go.mod":                           "module github.com/statuspatchx/other\n",
		"github.com/other/statuspatch@v1.0.0/go.mod":                            "module github.com/other/statuspatch\n",
		"cache/download/github.com/statuspatchx/other/@v/list":                  "v1.0.0\n",
		"cache/download/github.com/other/statuspatch/@v/list":                   "v1.0.0\n",
		"cache/download/golang.org/x/mod/@v/v0.9.0.mod":                         "module golang.org/x/mod\n",
		"golang.org/x/mod@v0.9.0/go.mod":                                        "module golang.org/x/mod\n",
		"github.com/statuspatch.txt":                                            "a file beside\n",
		"cache/download/sumdb/sum.golang.org/lookup/github.com/statuspatch/x@v": "sum",
	})
	before := files(t, cache)
	if err := Drop(Caches{ModCache: cache}); err != nil {
		t.Fatal(err)
	}
	dropped := Dropped(cache)
	var want []string
	for _, name := range before {
		p := filepath.Join(cache, filepath.FromSlash(name))
		if !slices.ContainsFunc(dropped, func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") }) {
			want = append(want, name)
		}
	}
	if got := files(t, cache); !slices.Equal(got, want) {
		t.Errorf("after Drop:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range dropped {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s is still there", d)
		}
	}
	if len(want) != len(before)-11 {
		t.Errorf("Drop left %d of %d paths, want all but the 11 of ours", len(want), len(before))
	}
	// Nothing left to drop is no error.
	if err := Drop(Caches{ModCache: cache}); err != nil {
		t.Errorf("second Drop: %v", err)
	}
}

// Dropped names this repository's owner's folders and nothing wider.
func TestDropped(t *testing.T) {
	got := Dropped("/c")
	want := []string{"/c/github.com/statuspatch", "/c/cache/download/github.com/statuspatch"}
	if !slices.Equal(got, want) {
		t.Errorf("Dropped = %v, want %v", got, want)
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

// Use drops the stale copies from the module cache the go command names,
// and the module index of those and of the folders the new build will be
// extracted to, for the caller's Go and every toolchain in the module
// cache (nothing else's); writes the proxy afresh (an earlier version's
// files gone) and returns the environment for it.
func TestUse(t *testing.T) {
	repo, work, cache, gocache := repoOfPublished(t), t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, cache, map[string]string{
		"github.com/statuspatch/statuspatch@v0.8.0/go.mod":         "stale\n",
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
		entry("gotest-a", "github.com/statuspatch/statuspatch@v0.8.0"),
		entry("gotest-b", "github.com/statuspatch/statuspatch@v0.8.0"),
		entry("gotest-a", "github.com/statuspatch/statuspatch/testenv@v0.9.0"),
		entry("gotest-b", "github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.9.0"),
	}
	kept := []string{
		entry("gotest-a", "golang.org/x/mod@v0.9.0"),
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
	if got := files(t, cache); !slices.Contains(got, "golang.org/x/mod@v0.9.0/go.mod") || slices.Contains(got, "github.com/statuspatch/") {
		t.Errorf("module cache after Use: %v", got)
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
