package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStorageVersionKeepsTheName: a kubebuilder multi-version API (one kind
// in api/v1 and api/v2, v1 marked +kubebuilder:storageversion, as
// kubebuilder's conversion scaffolds make it) generated into one output:dir,
// as statuspatch-gen init's Makefile line does. The names collide; the
// storage version gets the patcher, the other version none, and the run
// succeeds. Without the marker the collision stays an error.
func TestStorageVersionKeepsTheName(t *testing.T) {
	dir := errcases(t)
	variant(t, dir, "v1", "// +kubebuilder:subresource:status\n", "// +kubebuilder:storageversion\n// +kubebuilder:subresource:status\n")
	variant(t, dir, "v2", "", "")
	if err := run([]string{"paths={./v1,./v2}", "output:dir=./out"}, nil); err != nil {
		t.Fatalf("run: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", fileName))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if !strings.Contains(src, "func NewWidgetStatusPatcher(c client.Client, obj *errcasesv1.Widget") {
		t.Fatalf("no NewWidgetStatusPatcher over v1.Widget (the storage version) in:\n%s", src)
	}
	if strings.Contains(src, "v2.Widget") {
		t.Fatalf("a patcher over v2.Widget (not the storage version) in:\n%s", src)
	}

	// Both versions marked: which one is meant cannot be told.
	variant(t, dir, "v2", "// +kubebuilder:subresource:status\n", "// +kubebuilder:storageversion\n// +kubebuilder:subresource:status\n")
	err = run([]string{"paths={./v1,./v2}", "output:dir=./out"}, nil)
	if err == nil || !strings.Contains(err.Error(), "v2/types.go:12: WidgetStatusPatcher for example.com/errcases/v2.Widget collides with the one for example.com/errcases/v1.Widget") {
		t.Fatalf("both marked: error = %v, want the collision", err)
	}
}
