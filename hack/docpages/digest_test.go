package docpages

import (
	"fmt"
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
	testFiles(t, root, func(path string) bool {
		switch filepath.Base(path) {
		case ".git", "testdata", "bin", "node_modules":
			return true
		}
		return path == filepath.Join(root, "hack")
	}, func(path string, b []byte) {
		if loc := docPath.FindIndex(b); loc != nil {
			readers++
			if !strings.Contains(string(b), `os.Getenv("STATUSPATCH_DOCS_DIGEST")`) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: reads a page of docs/ (%s) but not STATUSPATCH_DOCS_DIGEST: go test's cache keeps its result when the page changes; read the variable where the page is read", rel, strings.Count(string(b[:loc[0]]), "\n")+1, b[loc[0]:loc[1]])
			}
		}
	})
	if readers < 3 {
		t.Errorf("found %d test files that read docs/, want at least 3 (the scaffold's, the linter's, the explorer example's): is the pattern still right?", readers)
	}
}

// A command a test runs in a process of its own, other than the test
// binary itself: what that process reads, go test's result cache does not
// see.
var subprocess = regexp.MustCompile(`exec\.Command(?:Context)?\((?:[^,)]*,\s*)?([^,)]+)`)

// TestSubprocessBuildersReadTheDigest: in statuspatch-gen's and
// statuspatch-lint's modules (make test-tools, which sets
// STATUSPATCH_SOURCE_DIGEST: the Makefile), every test package with a test
// file that runs a command other than its own test binary reads
// STATUSPATCH_SOURCE_DIGEST in one of its test files, so a change to the
// modules those commands build runs it again. (With CI's checkout times,
// hack/checkouttimes, the cache would otherwise keep a result across a
// change to the runtime its goldens compile against.)
func TestSubprocessBuildersReadTheDigest(t *testing.T) {
	root := filepath.Join("..", "..")
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), `STATUSPATCH_SOURCE_DIGEST="$$d"`) {
		t.Fatal("the Makefile's test-tools no longer sets STATUSPATCH_SOURCE_DIGEST")
	}
	type pkg struct {
		runs    string // the first file:line running a command
		readsIt bool
	}
	pkgs := map[string]*pkg{}
	for _, mod := range []string{"cmd/statuspatch-gen", "cmd/statuspatch-lint"} {
		testFiles(t, filepath.Join(root, mod), func(path string) bool { return filepath.Base(path) == "testdata" }, func(path string, b []byte) {
			p := pkgs[filepath.Dir(path)]
			if p == nil {
				p = &pkg{}
				pkgs[filepath.Dir(path)] = p
			}
			p.readsIt = p.readsIt || strings.Contains(string(b), `os.Getenv("STATUSPATCH_SOURCE_DIGEST")`)
			for _, m := range subprocess.FindAllSubmatchIndex(b, -1) {
				if strings.TrimSpace(string(b[m[2]:m[3]])) == "os.Args[0]" {
					continue
				}
				if p.runs == "" {
					rel, _ := filepath.Rel(root, path)
					p.runs = fmt.Sprintf("%s:%d", rel, strings.Count(string(b[:m[0]]), "\n")+1)
				}
			}
		})
	}
	runners := 0
	for dir, p := range pkgs {
		if p.runs == "" {
			continue
		}
		runners++
		if !p.readsIt {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: runs a command, but no test file of %s reads STATUSPATCH_SOURCE_DIGEST: go test's cache keeps its result when a module the command builds changes; read the variable where the command runs", p.runs, rel)
		}
	}
	if runners < 4 {
		t.Errorf("found %d test packages that run commands, want at least 4 (statuspatch-gen's and its scaffold's, the linter's and its lint package's): is the pattern still right?", runners)
	}
}

// testFiles calls each with every _test.go file under dir and its
// contents, skipping the folders skip names (given their path).
func testFiles(t *testing.T, dir string, skip func(path string) bool, each func(path string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && skip(path):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		each(path, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
