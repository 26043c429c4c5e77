package docpages

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A test file that reads a page of docs/ (or README.md) by its path from
// outside its module: a literal "../docs/<page>" or "../README.md", or
// "docs" joined to a path.
var docPath = regexp.MustCompile(`"(?:\.\./)+(?:docs/[\w.-]+|README\.md)"|"docs"\s*,`)

// TestDocReadersReadTheDigest: every test file of the other modules that
// reads a page of docs/ reads STATUSPATCH_DOCS_DIGEST too (make test's
// digest of the pages, the Makefile), so go test's result cache, which
// does not check files outside a module, runs it again when a page
// changes. hack's own tests run every time (-count=1) and are not looked
// at.
func TestDocReadersReadTheDigest(t *testing.T) {
	root := filepath.Join("..", "..")
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), "export STATUSPATCH_DOCS_DIGEST :=") {
		t.Fatal("the Makefile no longer exports STATUSPATCH_DOCS_DIGEST")
	}
	readers := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "bin", "node_modules":
				return filepath.SkipDir
			}
			if path == filepath.Join(root, "hack") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := docPath.FindIndex(b); loc != nil {
			readers++
			if !strings.Contains(string(b), `os.Getenv("STATUSPATCH_DOCS_DIGEST")`) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: reads a page of docs/ (%s) but not STATUSPATCH_DOCS_DIGEST: go test's cache keeps its result when the page changes; read the variable where the page is read", rel, strings.Count(string(b[:loc[0]]), "\n")+1, b[loc[0]:loc[1]])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if readers < 3 {
		t.Errorf("found %d test files that read docs/, want at least 3 (the scaffold's, the linter's, the explorer example's): is the pattern still right?", readers)
	}
}
