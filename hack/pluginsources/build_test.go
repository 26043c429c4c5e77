package pluginsources

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tree writes a repository of its own holding build.sh and the files
// named (path: content), and returns its root.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	script, err := os.ReadFile("../golangci-plugin/build.sh")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files["hack/golangci-plugin/build.sh"] = string(script)
	for p, body := range files {
		write(t, filepath.Join(root, p), body)
	}
	return root
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func build(t *testing.T, root, arg string) (string, error) {
	t.Helper()
	out, err := exec.Command(filepath.Join(root, "hack/golangci-plugin/build.sh"), arg).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func sample() map[string]string {
	return map[string]string{
		"cmd/statuspatch-lint/go.mod":                   "module lint\n",
		"cmd/statuspatch-lint/go.sum":                   "sum\n",
		"cmd/statuspatch-lint/main.go":                  "package main\n",
		"cmd/statuspatch-lint/main_test.go":             "package main\n",
		"cmd/statuspatch-lint/lint/analyzer.go":         "package lint\n",
		"cmd/statuspatch-lint/lint/analyzer_test.go":    "package lint\n",
		"cmd/statuspatch-lint/lint/testdata/src/a/a.go": "package a\n",
		"cmd/statuspatch-lint/lint/README.md":           "notes\n",
		"hack/golangci-plugin/main.go":                  "package main\n",
		"hack/golangci-plugin/go.mod":                   "module plugin\n",
		"hack/golangci-plugin/go.work":                  "go 1.26\n",
		"hack/golangci-plugin/go.work.sum":              "sum\n",
		"hack/golangci-plugin/testdata/kubebuilder.yml": "linters: {}\n",
		"hack/golangci-plugin/testdata/go.mod":          "module x\n",
		"hack/other/other.go":                           "package other\n",
		"patcher/patcher.go":                            "package patcher\n",
	}
}

// The files the digest covers: the linter's and the plugin's non-test Go
// files and their go.mod, go.sum, go.work and go.work.sum; no test file,
// nothing under testdata, nothing else; sorted, relative to the root.
func TestSources(t *testing.T) {
	root := tree(t, sample())
	got, err := build(t, root, "--sources")
	if err != nil {
		t.Fatalf("build.sh --sources: %v\n%s", err, got)
	}
	want := strings.Join([]string{
		"cmd/statuspatch-lint/go.mod",
		"cmd/statuspatch-lint/go.sum",
		"cmd/statuspatch-lint/lint/analyzer.go",
		"cmd/statuspatch-lint/main.go",
		"hack/golangci-plugin/go.mod",
		"hack/golangci-plugin/go.work",
		"hack/golangci-plugin/go.work.sum",
		"hack/golangci-plugin/main.go",
	}, "\n")
	if got != want {
		t.Errorf("build.sh --sources:\n%s\nwant:\n%s", got, want)
	}
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

// The digest moves with an analyzer's source or a module file, comes back
// when the edit is undone, and stays with a test, testdata or a file the
// plugin does not build.
func TestDigest(t *testing.T) {
	files := sample()
	root := tree(t, files)
	digest := func() string {
		t.Helper()
		d, err := build(t, root, "--digest")
		if err != nil || !hex16.MatchString(d) {
			t.Fatalf("build.sh --digest = %q, %v; want 16 hex digits", d, err)
		}
		return d
	}
	base := digest()
	for _, c := range []struct {
		path  string
		moves bool
	}{
		{"cmd/statuspatch-lint/lint/analyzer.go", true},
		{"cmd/statuspatch-lint/go.sum", true},
		{"hack/golangci-plugin/main.go", true},
		{"hack/golangci-plugin/go.work", true},
		{"cmd/statuspatch-lint/lint/analyzer_test.go", false},
		{"cmd/statuspatch-lint/lint/testdata/src/a/a.go", false},
		{"cmd/statuspatch-lint/lint/README.md", false},
		{"hack/golangci-plugin/testdata/go.mod", false},
		{"patcher/patcher.go", false},
	} {
		p := filepath.Join(root, c.path)
		write(t, p, files[c.path]+"// edited\n")
		if got := digest(); (got != base) != c.moves {
			t.Errorf("after an edit of %s: digest %s, before %s; want it to move: %v", c.path, got, base, c.moves)
		}
		write(t, p, files[c.path])
		if got := digest(); got != base {
			t.Errorf("after the edit of %s was undone: digest %s, want %s", c.path, got, base)
		}
	}
	// A new analyzer file moves it too.
	write(t, filepath.Join(root, "cmd/statuspatch-lint/lint/new.go"), "package lint\n")
	if digest() == base {
		t.Error("a new analyzer file left the digest as it was")
	}
}

// No source file under the root, or no linter at all: a failure naming
// the cause, not a digest of nothing.
func TestDigestOfNothingFails(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"cmd/statuspatch-lint/README.md": "x\n"}, "build.sh: no source files of the plugin under "},
		{map[string]string{"README.md": "x\n"}, "cmd/statuspatch-lint"},
	} {
		root := tree(t, c.files)
		out, err := build(t, root, "--digest")
		if err == nil || !strings.Contains(out, c.want) || hex16.MatchString(out) {
			t.Errorf("build.sh --digest in a tree of %v: %v, %q; want a failure saying %q", c.files, err, out, c.want)
		}
	}
}
