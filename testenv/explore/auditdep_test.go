package explore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A write sent from a dependency's package (a status helper library the
// operator requires, here replaced to a folder) is audited through the
// operator's module: the dependency's own go.mod, whose replace line
// names a folder that is not there, does not build, and the linter run
// in its folder audits nothing (issue 82).
func TestAuditOfAWriteInADependency(t *testing.T) {
	lint := buildLint(t)
	dep, err := filepath.Abs(filepath.Join("testdata", "auditdep", "dep"))
	if err != nil {
		t.Fatal(err)
	}
	op := operatorModule(t, dep)
	src, err := os.ReadFile(filepath.Join(dep, "status.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "Status().Patch") {
			line = i + 1
		}
	}
	t.Chdir(op)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	got, err := explore.AuditLine(t.Context(), lint, filepath.Join(dep, "status.go"), "example.com/dep.PatchStatus", line)
	const want = "blind: Status().Patch of client.Object: client.MergeFrom without optimistic lock"
	if err != nil || got != want {
		t.Errorf("audit of dep/status.go:%d from the operator's module: %q, %v; want %q", line, got, err, want)
	}
}

// operatorModule is a module that requires what this one does (its
// go.mod and go.sum, all in the module cache) and the module in dep,
// replaced to that folder.
func operatorModule(t *testing.T, dep string) string {
	t.Helper()
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(mod), "\n") {
		switch {
		case strings.HasPrefix(l, "module "):
			l = "module example.com/op\n"
		case strings.Contains(l, "github.com/statuspatch/statuspatch "):
			continue // not in the module cache; the operator needs none of it
		}
		b.WriteString(l)
	}
	b.WriteString("\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => " + dep + "\n")
	op := t.TempDir()
	if err := os.WriteFile(filepath.Join(op, "go.mod"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(op, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return op
}
