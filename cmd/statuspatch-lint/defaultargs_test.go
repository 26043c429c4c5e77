package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefaultArgs(t *testing.T) {
	for _, tc := range []struct {
		args, want []string
	}{
		{[]string{"./..."}, []string{"-test=false", "./..."}},
		{[]string{"-audit", "./..."}, []string{"-test=false", "-audit", "./..."}},
		{[]string{"-fix", "./..."}, []string{"-test=false", "-fix", "./..."}},
		{[]string{"-tests=false", "./..."}, []string{"-test=false", "-tests=false", "./..."}},
		{[]string{"-tests", "./..."}, []string{"-tests", "./..."}},
		{[]string{"--tests=true", "./..."}, []string{"--tests=true", "./..."}},
		{[]string{"-test=true", "./..."}, []string{"-test=true", "./..."}},
		{[]string{"-test", "./..."}, []string{"-test", "./..."}},
		{[]string{"-flags"}, []string{"-flags"}},
		{[]string{"-V=full"}, []string{"-V=full"}},
		{[]string{"-audit", "/tmp/go-build/vet.cfg"}, []string{"-audit", "/tmp/go-build/vet.cfg"}},
	} {
		if got := defaultArgs(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("defaultArgs(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// The command does not load test files unless -tests asks for findings in
// them: a _test.go that does not compile (or imports a heavy test
// dependency) costs nothing by default, and fails the run with -tests.
func TestTestFilesLoadedOnlyWithTests(t *testing.T) {
	bin := buildLint(t)
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.24\n",
		"m.go":      "package m\n\nfunc F() int { return 1 }\n",
		"m_test.go": "package m\n\nvar _ = undefinedInTests\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := lintIn(t, mod, bin, "./..."); code != 0 {
		t.Errorf("statuspatch-lint ./...: exit status %d, want 0 (test files not loaded):\n%s", code, out)
	}
	if out, code := lintIn(t, mod, bin, "-tests", "./..."); code == 0 || !strings.Contains(out, "undefinedInTests") {
		t.Errorf("statuspatch-lint -tests ./...: exit status %d, want a failure on the broken test file:\n%s", code, out)
	}
}
