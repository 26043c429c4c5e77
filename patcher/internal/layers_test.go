package internal_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/statuspatch/statuspatch/"

// allowed is the layering of the patcher's runtime, the one place it is
// written: for each package under patcher/internal, the packages under
// patcher/internal it may import. It is a small DAG: wire is the bottom,
// which any may import; apply uses diff's Divergence; the others are
// leaves beside one another. None may import patcher itself (Go's import
// cycle rule would forbid it anyway once patcher imports it) or any other
// package of the repository. A new internal package must be added here.
var allowed = map[string][]string{
	"settle":  {"wire"},
	"history": {"wire"},
	"diff":    {},
	"guard":   {"wire"},
	"apply":   {"diff", "wire"},
	"book":    {"wire"},
	"wire":    {},
}

// The internal packages import only what the layering allows: their code
// and their tests, read with go/parser (no build, no go/packages).
func TestLayers(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		seen[e.Name()] = true
		deps, ok := allowed[e.Name()]
		if !ok {
			t.Errorf("patcher/internal/%s is not in the layering (allowed in layers_test.go)", e.Name())
			continue
		}
		for _, fi := range repoImports(t, e.Name()) {
			file, imp := fi[0], fi[1]
			rel := strings.TrimPrefix(imp, module)
			if want, found := strings.CutPrefix(rel, "patcher/internal/"); found && (want == e.Name() || slices.Contains(deps, want)) {
				continue // itself (an external test package), or a dependency
			}
			t.Errorf("%s imports %s: patcher/internal/%s may import only %v of this repository", file, imp, e.Name(), deps)
		}
	}
	for name := range allowed {
		if !seen[name] {
			t.Errorf("layers_test.go lists patcher/internal/%s, which does not exist", name)
		}
	}
}

// repoImports returns the imports of this repository's packages made by
// the Go files under dir (nested packages included), as {file, import}.
func repoImports(t *testing.T, dir string) [][2]string {
	t.Helper()
	var out [][2]string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if strings.HasPrefix(imp, module) || imp == strings.TrimSuffix(module, "/") {
				out = append(out, [2]string{path, imp})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
