package generator

import (
	"slices"
	"testing"
)

func TestImportNames(t *testing.T) {
	im := newImports("example.com/api/apps/v1", []string{"client", "appsv1"})
	for _, tc := range []struct{ path, pkgName, want string }{
		{"example.com/api/apps/v1", "v1", ""},              // the local package
		{contextPath, "context", "context"},                // the leaf
		{clientPath, "client", "pkgclient"},                // "client" is declared in the package
		{metav1Path, "v1", "metav1"},                       // never a bare version
		{"example.com/other/apps/v1", "v1", "otherappsv1"}, // appsv1 is declared
		{"example.com/x/apps/v1", "v1", "xappsv1"},         // a longer suffix
		{"example.com/x/apps/v1", "v1", "xappsv1"},         // same path, same name
		{"example.com/go", "go", "_go"},                    // keyword
		{"example.com/y/meta", "meta", "meta"},             // first meta wins
		{metaPath, "meta", "apimeta"},                      // second meta is qualified
		{"meta", "meta", "meta2"},                          // every suffix taken: numbered
		{"github.com/statuspatch/statuspatch/patcher", "patcher", "patcher"},
	} {
		if got := im.add(tc.path, tc.pkgName); got != tc.want {
			t.Errorf("add(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	want := []string{
		`"context"`,
		`xappsv1 "example.com/x/apps/v1"`,
	}
	lines := im.lines()
	for _, w := range want {
		if !slices.Contains(lines, w) {
			t.Errorf("import lines lack %s: %q", w, lines)
		}
	}
}
