// Package treetest holds the file-tree helpers that statuspatch-gen's tests
// share (the command's and the scaffold's): copying a testdata tree,
// writing a file with its directories, and finding the repository root.
package treetest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CopyTree copies regular files from src to dst, skipping directories for
// which skip returns true.
func CopyTree(t testing.TB, src, dst string, skip func(rel string) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if skip != nil && skip(rel) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// WriteFile writes content to path, making its directories.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runtimeModule is the go.mod line of the repository root's module.
var runtimeModule = []byte("module github.com/statuspatch/statuspatch\n")

// RepoRoot is the repository root: the nearest directory above the working
// directory whose go.mod is the runtime's module.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, runtimeModule) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no directory above the working directory holds the runtime's go.mod (module github.com/statuspatch/statuspatch)")
		}
		dir = up
	}
}
