package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
)

// The command tells the analyzer which unexported functions each package's
// in-package test files name (-test-refs): -fix changes a helper's
// signature only when no test calls it. External test packages, testdata,
// nested modules and directories without Go files are left out, and so is
// a package a test file imports under a helper's name (reconcile.Request
// names no function reconcile of the package).
func TestTestRefsArg(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/m\n",
		"a/a.go":            "package a\n\ntype T struct{}\n\nfunc helper() {}\n\nfunc (T) method() {}\n\nfunc Exported() {}\n\nfunc untested() {}\n",
		"a/a_test.go":       "package a\n\nfunc use() { helper(); T{}.method(); Exported() }\n",
		"a/x_test.go":       "package a_test\n\nfunc other() { untested := 1; _ = untested }\n",
		"a/ignored.go":      "//go:build ignore\n\npackage main\n\nfunc main() {}\n",
		"b/b.go":            "package b\n\nfunc write() {}\n\nfunc reconcile() {}\n",
		"b/b_test.go":       "package b\n\nimport (\n\t\"example.com/m/reconcile\"\n\tw \"example.com/m/write\"\n)\n\nvar _, _ = reconcile.Request{}, w.X\n",
		"b/testdata/c.go":   "package c\n",
		"nested/go.mod":     "module example.com/nested\n",
		"nested/n.go":       "package n\n\nfunc f() {}\n",
		"nested/n_test.go":  "package n\n\nfunc g() { f() }\n",
		"docs/README.md":    "no Go here\n",
		"broken/broken.go":  "package broken\n\nfunc (\n",
		"broken/ok_test.go": "package broken\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := ondisk.TestRefsArg(filepath.Join(root, "a")), "example.com/m/a=helper+method,example.com/m/b="; got != want {
		t.Errorf("ondisk.TestRefsArg = %q, want %q", got, want)
	}
	args := withTestRefs([]string{"-fix", "./..."}, root)
	if want := []string{"-test-refs=example.com/m/a=helper+method,example.com/m/b=", "-fix", "./..."}; !slices.Equal(args, want) {
		t.Errorf("withTestRefs = %q, want %q", args, want)
	}
	for _, given := range [][]string{{"-test-refs=x=", "./..."}, {"vet.cfg"}, {"-flags"}} {
		if got := withTestRefs(given, root); !slices.Equal(got, given) {
			t.Errorf("withTestRefs(%q) = %q, want it unchanged", given, got)
		}
	}
}
