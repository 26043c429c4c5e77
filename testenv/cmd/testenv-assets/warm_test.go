package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyModule writes a module whose tests need three packages: a, b (which
// imports a) and c, which only b's test imports; cmd/tool is a command,
// which warm leaves out.
func tinyModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":           "module example.com/tiny\n\ngo 1.24\n",
		"a/a.go":           "package a\n\nfunc A() int { return 1 }\n",
		"b/b.go":           "package b\n\nimport \"example.com/tiny/a\"\n\nfunc B() int { return a.A() + 1 }\n",
		"b/b_test.go":      "package b\n\nimport (\n\t\"testing\"\n\n\t\"example.com/tiny/c\"\n)\n\nfunc TestB(t *testing.T) {\n\tif B() != c.C() {\n\t\tt.Fatal(B())\n\t}\n}\n",
		"c/c.go":           "package c\n\nfunc C() int { return 2 }\n",
		"cmd/tool/main.go": "package main\n\nimport \"example.com/tiny/a\"\n\nfunc main() { _ = a.A() }\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runWarm(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := warm(t.Context(), dir, args, &stderr, envRunner("go"), 0)
	t.Logf("testenv-assets warm %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	return code, stderr.String()
}

// The real go command on a cold build cache: warm compiles the three
// packages the tests need (the test-only import too, not the command),
// saying N/M as it goes; the second run finds them cached; go test then
// compiles no dependency (go build -v on them prints nothing).
func TestWarmCompilesTestDependencies(t *testing.T) {
	dir := tinyModule(t)
	t.Setenv("GOCACHE", t.TempDir()) // cold
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")

	code, out := runWarm(t, dir, "./...")
	for _, want := range []string{
		"the tests of ./... need 3 packages outside the standard library",
		"compiled 1/3 packages", "compiled 3/3 packages",
		"compiled 3/3 packages, the other 0 were in the build cache",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("first run lacks %q", want)
		}
	}
	if code != 0 || strings.Contains(out, "cmd/tool") {
		t.Errorf("first run: exit %d, or it compiled the command", code)
	}

	code, out = runWarm(t, dir) // ./... by default
	if code != 0 || !strings.Contains(out, "compiled 0/3 packages, the other 3 were in the build cache") {
		t.Errorf("second run: exit %d; want nothing compiled", code)
	}
	built, err := envRunner("go")(t.Context(), dir, nil, "list", "-export", "-f", "{{.ImportPath}} {{.Stale}}", "./a", "./b", "./c")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(built)); got != "example.com/tiny/a false\nexample.com/tiny/b false\nexample.com/tiny/c false" {
		t.Errorf("after warm, go list -export says:\n%s", got)
	}
}

// A package that does not compile fails warm with the compiler's message.
func TestWarmCompileError(t *testing.T) {
	dir := tinyModule(t)
	if err := os.WriteFile(filepath.Join(dir, "c", "c.go"), []byte("package c\n\nfunc C() int { return undefinedName }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOPROXY", "off")
	code, out := runWarm(t, dir, "./b")
	if code != 1 || !strings.Contains(out, "undefined: undefinedName") {
		t.Errorf("exit %d; want 1 and the compiler's message", code)
	}
	if code, _ := runWarm(t, dir, "-nosuchflag"); code != 2 {
		t.Errorf("a bad flag: exit %d, want 2", code)
	}
}

func TestWarmPackages(t *testing.T) {
	got := warmPackages("example.com/a\nexample.com/b [example.com/b.test]\nexample.com/b.test\n\nexample.com/a\nexample.com/c\n")
	if strings.Join(got, " ") != "example.com/a example.com/c" {
		t.Errorf("warmPackages = %q", got)
	}
}
