package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The newest release of testenv-assets' cache wins, by number (1.35.10 is
// newer than 1.35.9), among folders of this platform with an executable
// kube-apiserver.
func TestNewestCachedAssets(t *testing.T) {
	root := t.TempDir()
	for name, mode := range map[string]os.FileMode{
		"1.9.0-linux-amd64":   0o755,
		"1.35.9-linux-amd64":  0o755,
		"1.35.10-linux-amd64": 0o755,
		"1.36.0-linux-amd64":  0o644, // not executable
		"1.37.0-darwin-arm64": 0o755, // another platform
		"1.38.0-linux-amd64":  0,     // no binary
		"1.39-linux-amd64":    0o755, // not a release
		"01.40.0-linux-amd64": 0o755, // not how testenv-assets names it
	} {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if mode != 0 {
			if err := os.WriteFile(filepath.Join(dir, "kube-apiserver"), []byte("#!/bin/sh\n"), mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir, ok := newestCachedAssets(root, "linux", "amd64")
	if want := filepath.Join(root, "1.35.10-linux-amd64"); !ok || dir != want {
		t.Errorf("newestCachedAssets = %q, %t; want %q", dir, ok, want)
	}
	if dir, ok := newestCachedAssets(filepath.Join(root, "missing"), "linux", "amd64"); ok {
		t.Errorf("a missing cache gave %q", dir)
	}
}

// An explicit directory is used or refused; it never falls back to the cache.
func TestFindKubeAPIServerExplicitDirectory(t *testing.T) {
	dir := t.TempDir()
	o := options{assetsDir: dir, assetsFrom: EnvAssets}
	if _, _, err := findKubeAPIServer(o); err == nil || !strings.Contains(err.Error(), `KUBEBUILDER_ASSETS "`+dir+`"`) {
		t.Fatalf("empty directory: err = %v", err)
	}
	bin := filepath.Join(dir, "kube-apiserver")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path, source, err := findKubeAPIServer(o)
	if err != nil || path != bin || source != "KUBEBUILDER_ASSETS "+dir {
		t.Fatalf("findKubeAPIServer = %q, %q, %v", path, source, err)
	}
}
