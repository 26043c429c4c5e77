package explore_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The explorer runs any reconciler; it and its tests import nothing of the
// runtime module (patcher, patchertest). Its test binary then does not
// change when the runtime does, so go test's cache keeps the explorer's
// tests (a minute and a half of CPU) when only the runtime changed, at the
// workspace's line and at each older line of make test-compat. Tests of
// the explorer with the patcher live in testenv/internal/patcherit.
func TestExploreTestsDoNotImportTheRuntime(t *testing.T) {
	const runtime = "github.com/statuspatch/statuspatch/patch"
	var files []string
	for _, dir := range []string{".", "report"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found %d Go files in explore and explore/report, want the package's: is the test in the right folder?", len(files))
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(imp.Pos()), err)
			}
			if strings.HasPrefix(path, runtime) {
				t.Errorf("%s: imports %s: the explorer's test binary would link the runtime, and every change to the runtime would run the explorer's tests again at every line; test the explorer with the patcher in testenv/internal/patcherit", fset.Position(imp.Pos()), path)
			}
		}
	}
}
