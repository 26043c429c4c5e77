package main

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// write puts files (path: text) under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// released is a repository as a release of v0.10.0 after v0.9.0 leaves
// it (the last commit, tagged), and the files of that commit.
func released(t *testing.T) (string, map[string]string) {
	t.Helper()
	p := prefix
	req := func(dirs ...string) string {
		s := "require (\n"
		for _, d := range dirs {
			s += "\t" + modPath(d) + " v0.9.0\n"
		}
		return s + ")\n"
	}
	files := map[string]string{
		"go.mod":                       "module " + p + "\n\ngo 1.26.0\n",
		"hack/go.mod":                  "module " + p + "/hack\n",
		"cmd/statuspatch-gen/go.mod":   "module " + p + "/cmd/statuspatch-gen\n",
		"cmd/statuspatch-lint/go.mod":  "module " + p + "/cmd/statuspatch-lint\n",
		"testenv/explore/go.mod":       "module " + p + "/testenv/explore\n\n" + req("."),
		"testenv/explore/go.sum":       "",
		"testenv/go.mod":               "module " + p + "/testenv\n\n" + req(".", "testenv/explore"),
		"testenv/go.sum":               "",
		"examples/go.mod":              "module " + p + "/examples\n\n" + req(".", "testenv", "testenv/explore", "cmd/statuspatch-gen", "cmd/statuspatch-lint"),
		"examples/go.sum":              "",
		"hack/golangci-plugin/go.mod":  "module " + p + "/hack/golangci-plugin\n\n" + req("cmd/statuspatch-lint"),
		"hack/golangci-plugin/go.sum":  "",
		"hack/golangci-plugin/go.work": "go 1.26.0\n\nreplace " + p + "/cmd/statuspatch-lint v0.9.0 => ../../cmd/statuspatch-lint\n",
		"go.work":                      "go 1.26.0\n\nreplace (\n\t" + p + " v0.9.0 => ./\n\t" + p + "/testenv v0.9.0 => ./testenv\n\t" + p + "/testenv/explore v0.9.0 => ./testenv/explore\n\t" + p + "/cmd/statuspatch-gen v0.9.0 => ./cmd/statuspatch-gen\n\t" + p + "/cmd/statuspatch-lint v0.9.0 => ./cmd/statuspatch-lint\n)\n",
		"README.md":                    "go install " + p + "/cmd/statuspatch-gen@v0.9.0\n",
		"docs/kubebuilder.md":          "STATUSPATCH_VERSION ?= v0.9.0\n",
	}
	dir := t.TempDir()
	write(t, dir, files)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "before")
	for _, m := range modules {
		gomod := filepath.ToSlash(filepath.Join(m.dir, "go.mod"))
		for _, s := range m.needs {
			files[gomod] = strings.Replace(files[gomod], modPath(s)+" v0.9.0", modPath(s)+" v0.10.0", 1)
			files[filepath.ToSlash(filepath.Join(m.dir, "go.sum"))] += modPath(s) + " v0.10.0/go.mod h1:x=\n"
		}
	}
	for _, f := range workFiles {
		files[f] = apply(files[f], workRewrites("v0.9.0", "v0.10.0"))
	}
	for _, f := range []string{"README.md", "docs/kubebuilder.md"} {
		files[f] = apply(files[f], docRewrites("v0.9.0", "v0.10.0"))
	}
	write(t, dir, files)
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "release: v0.10.0")
	var refs strings.Builder
	for _, tag := range tags("v0.10.0") {
		refs.WriteString("create refs/tags/" + tag + " HEAD\n")
	}
	cmd := exec.Command("git", "-C", dir, "update-ref", "--stdin")
	cmd.Stdin = strings.NewReader(refs.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git update-ref: %v\n%s", err, out)
	}
	return dir, files
}

// A clone as the release leaves it passes; each thing a broken release
// would leave is reported at its file.
func TestCheckClone(t *testing.T) {
	ctx := context.Background()
	dir, files := released(t)
	if err := checkClone(ctx, dir, "v0.10.0", "v0.9.0"); err != nil {
		t.Fatalf("a good release: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(map[string]string)
		want string
	}{
		{"a pin not moved", func(f map[string]string) {
			f["examples/go.mod"] = strings.Replace(f["examples/go.mod"], "testenv v0.10.0", "testenv v0.9.0", 1)
		}, "examples/go.mod does not require github.com/statuspatch/statuspatch/testenv at v0.10.0"},
		{"a hash missing", func(f map[string]string) { f["testenv/go.sum"] = "" },
			"testenv/go.sum lacks github.com/statuspatch/statuspatch's v0.10.0 hash"},
		{"a replace", func(f map[string]string) { f["testenv/go.mod"] += "replace a => ../a\n" },
			"testenv/go.mod:7: replace a => ../a"},
		{"the old version left in the docs", func(f map[string]string) { f["README.md"] += "go get " + prefix + "@v0.9.0\n" },
			"README.md:2: the release left the previous version v0.9.0 behind"},
		{"go.work not moved", func(f map[string]string) { f["go.work"] = strings.ReplaceAll(f["go.work"], "v0.10.0", "v0.9.0") },
			"go.work: does not map github.com/statuspatch/statuspatch/testenv v0.10.0"},
	} {
		// checkClone reads the working tree: the broken files are
		// written there, then the release's put back.
		broken := maps.Clone(files)
		c.edit(broken)
		write(t, dir, broken)
		err := checkClone(ctx, dir, "v0.10.0", "v0.9.0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant an error with %q", c.name, err, c.want)
		}
		write(t, dir, files)
	}
	// A module that needs no sibling is released as it is: the release
	// commit must not change its go.mod.
	write(t, dir, map[string]string{"cmd/statuspatch-gen/go.mod": files["cmd/statuspatch-gen/go.mod"] + "\n"})
	gitIn(t, dir, "commit", "-q", "-a", "--amend", "--no-edit")
	if err := checkClone(ctx, dir, "v0.10.0", "v0.9.0"); err == nil || !strings.Contains(err.Error(), "the release changed cmd/statuspatch-gen/go.mod") {
		t.Errorf("a tool's go.mod changed: %v", err)
	}
}
