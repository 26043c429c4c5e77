package lint_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/stubmod"
)

// TestDocumentedVetLines runs the go vet lines of docs/lint.md as a user
// would (sh -c, in the module's directory): where the tool is installed
// they report findings, and where it is not they fail loudly instead of
// running go vet without the analyzer and exiting 0.
func TestDocumentedVetLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds statuspatch-lint and type-checks controller-runtime")
	}
	lines := documentedLines(t, "../../../docs/lint.md", "go vet -vettool")
	if len(lines) < 2 {
		t.Fatalf("docs/lint.md has %d go vet lines, want the go tool and the bin/ forms", len(lines))
	}

	empty := t.TempDir()
	writeFile(t, filepath.Join(empty, "go.mod"), "module example.com/empty\n\ngo 1.26\n")
	writeFile(t, filepath.Join(empty, "empty.go"), "package empty\n")

	// A copy of testdata/realmod with the tool in bin/ and as a go tool:
	// the runtime from this checkout's root module, the tool from its own.
	// Its controller-runtime and k8s.io are the stubs (internal/stubmod):
	// go vet analyses every dependency again for each new tool and each
	// set of flags: over the real modules this test took 450 s at load 7
	// (one analysis about 130 CPU-s), over the stubs 12 s. The install
	// test runs README.md's go vet line over the real modules.
	lintRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(lintRoot, "..", "..")
	mod := t.TempDir()
	run(t, "testdata/realmod", "cp", "-r", ".", mod)
	stubRequirements(t, mod)
	// -buildvcs=false: a tool stamped with the commit would be a new vet
	// tool at every commit, and go vet would analyse every dependency again.
	bin := filepath.Join(mod, "bin", "statuspatch-lint")
	run(t, lintRoot, "go", "build", "-buildvcs=false", "-o", bin, ".")
	if out, err := exec.Command("go", "version", "-m", bin).CombinedOutput(); err != nil || strings.Contains(string(out), "vcs.revision") {
		t.Fatalf("go version -m %s: err=%v, want no commit stamped in the tool\n%s", bin, err, out)
	}
	run(t, mod, "go", "mod", "edit",
		"-require=github.com/statuspatch/statuspatch@v0.0.0",
		"-replace=github.com/statuspatch/statuspatch="+root,
		"-require=github.com/statuspatch/statuspatch/cmd/statuspatch-lint@v0.0.0",
		"-replace=github.com/statuspatch/statuspatch/cmd/statuspatch-lint="+lintRoot,
		"-tool=github.com/statuspatch/statuspatch/cmd/statuspatch-lint")
	run(t, mod, "go", "mod", "tidy")

	for _, line := range lines {
		out, err := sh(empty, line)
		if err == nil {
			t.Errorf("%s\nin a module without the tool: exit 0, want a failure\n%s", line, out)
		}
		out, err = sh(mod, line)
		if err == nil || !finding.MatchString(out) {
			t.Errorf("%s\nwith the tool: err=%v, want findings\n%s", line, err, out)
		}
		// vet runs one process per package: the verdict of a patch built
		// in another package reaches the caller only as a fact.
		if strings.Contains(line, " -ci ") && !strings.Contains(out, "patchutil.NewPatch returns client.MergeFrom") {
			t.Errorf("%s\nwith the tool: no verdict through patchutil's fact\n%s", line, out)
		}
	}
}

// finding matches a reported finding's position: "file.go:12:9: ".
var finding = regexp.MustCompile(`\.go:\d+:\d+: `)

// documentedLines returns the lines of the sh code blocks of a Markdown
// file that contain substr.
func documentedLines(t *testing.T, path, substr string) []string {
	t.Helper()
	// make test's digest of docs/ (the Makefile): go test's result cache
	// runs this test again when it changes, as it does not check files
	// outside the module, such as the page.
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	inSh := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "```"):
			inSh = !inSh && strings.TrimPrefix(l, "```") == "sh"
		case inSh && strings.Contains(l, substr):
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// stubRequirements makes the module in mod require the analyzer's stubs
// (testdata/src) in place of controller-runtime and k8s.io.
func stubRequirements(t *testing.T, mod string) {
	t.Helper()
	stubs, err := filepath.Abs(filepath.Join("testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(mod, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := stubmod.GoMod(data, stubs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(mod, "go.sum")); err != nil {
		t.Fatal(err)
	}
}

func sh(dir, line string) (string, error) {
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// run runs name with args in dir and fails the test if it fails. The
// commands build this command and copy this module's testdata, which
// the test process does not read, so go test's result cache does not look
// at them: run reads STATUSPATCH_SOURCE_DIGEST, make test's digest of the
// modules they build (the Makefile), so a change there runs the tests
// again.
func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST")
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
