package generator

import (
	"bufio"
	"bytes"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate the committed goldens in testdata/ instead of comparing")

// testdata is the golden module, as an absolute path (tests change the
// working directory).
var testdata = func() string {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		panic(err)
	}
	return dir
}()

const toolPrefix = "//go:generate go tool statuspatch-gen "

// generateRuns returns the statuspatch-gen argument lists of
// testdata/generate.go, in order: the goldens are defined there once, for
// `go generate` and for this test.
func generateRuns(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata, "generate.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var runs [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), toolPrefix); ok {
			runs = append(runs, strings.Fields(rest))
		}
	}
	if len(runs) == 0 {
		t.Fatal("no statuspatch-gen runs in testdata/generate.go")
	}
	return runs
}

// repoRoot is the statuspatch module root.
func repoRoot(t *testing.T) string {
	t.Helper()
	return filepath.Dir(filepath.Dir(testdata))
}

// copyGoldens copies the golden module (without the nested errcases module)
// to a temporary directory and points its replace directive at this checkout.
func copyGoldens(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	copyTree(t, testdata, dst, func(rel string) bool { return rel == "errcases" })
	gomod := filepath.Join(dst, "go.mod")
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("=> ../.."), []byte("=> "+repoRoot(t)), 1)
	if err := os.WriteFile(gomod, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// copyTree copies regular files from src to dst, skipping directories for
// which skip returns true.
func copyTree(t *testing.T, src, dst string, skip func(rel string) bool) {
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

// generatedFiles returns the contents of every zz_generated.statuspatch.go
// below dir, by relative path.
func generatedFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := make(map[string][]byte)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && d.Name() == "errcases" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == fileName {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			out[filepath.ToSlash(rel)] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// removeGenerated deletes every generated file below dir.
func removeGenerated(t *testing.T, dir string) {
	t.Helper()
	for rel := range generatedFiles(t, dir) {
		if err := os.Remove(filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
}

// generateIn runs every golden run in module dir.
func generateIn(t *testing.T, dir string) {
	t.Helper()
	runs := generateRuns(t)
	t.Chdir(dir)
	for _, args := range runs {
		if err := Run(args, nil); err != nil {
			t.Fatalf("statuspatch-gen %s:\n%v", strings.Join(args, " "), err)
		}
	}
}

// TestGoldens regenerates the goldens from scratch into a copy of testdata
// and compares the bytes with the committed ones; this is what
// `make verify-generated` relies on. With -update it rewrites testdata.
func TestGoldens(t *testing.T) {
	if *update {
		removeGenerated(t, testdata)
		generateIn(t, testdata)
		return
	}
	want := generatedFiles(t, testdata)
	dir := copyGoldens(t)
	removeGenerated(t, dir)
	generateIn(t, dir)
	got := generatedFiles(t, dir)
	for rel, b := range want {
		if g, ok := got[rel]; !ok {
			t.Errorf("%s: committed but no longer generated", rel)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s: differs from the committed golden; run go test ./generator -update and review the diff", rel)
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s: generated but not committed; run go test ./generator -update", rel)
		}
	}
}

// TestDeterministic generates twice in two fresh copies and in place again
// over existing output; all three must be byte-identical.
func TestDeterministic(t *testing.T) {
	var results []map[string][]byte
	for range 2 {
		dir := copyGoldens(t)
		removeGenerated(t, dir)
		generateIn(t, dir)
		results = append(results, generatedFiles(t, dir))
		generateIn(t, dir) // over its own output
		results = append(results, generatedFiles(t, dir))
	}
	for i := 1; i < len(results); i++ {
		if len(results[i]) != len(results[0]) {
			t.Fatalf("run %d produced %d files, run 0 %d", i, len(results[i]), len(results[0]))
		}
		for rel, b := range results[0] {
			if !bytes.Equal(results[i][rel], b) {
				t.Errorf("run %d: %s differs from run 0", i, rel)
			}
		}
	}
}

// TestGoldenModuleBuilds compiles and vets the golden module and runs its
// tests (generated patchers on controller-runtime's fake client).
func TestGoldenModuleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the golden module")
	}
	for _, args := range [][]string{
		{"build", "./..."},
		{"vet", "./..."},
		{"test", "-count=1", "./..."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = testdata
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in testdata: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
