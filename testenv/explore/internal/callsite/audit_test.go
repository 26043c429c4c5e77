package callsite

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The linter's -json output gives each audit finding by file and line;
// a package's error, a finding of another mode, and a line with two
// different findings give none.
func TestParseAudit(t *testing.T) {
	out := `{
	"example.com/op/ctrl": {"statuspatch": [
		{"category": "blind", "posn": "/src/op/ctrl/w.go:48:9", "message": "blind: Status().Patch of Widget: client.MergeFrom without optimistic lock"},
		{"category": "optimistic", "posn": "/src/op/ctrl/w.go:31:9", "message": "optimistic: Status().Patch of Widget: MergeFromWithOptimisticLock"},
		{"category": "writetoken", "posn": "/src/op/ctrl/w.go:70:2", "message": "handwritten write of the write token"},
		{"category": "blind", "posn": "/src/op/ctrl/w.go:90:9", "message": "blind: Status().Update of Widget: resourceVersion cleared before Update"},
		{"category": "optimistic", "posn": "/src/op/ctrl/w.go:90:40", "message": "optimistic: Status().Update of Widget: Update sends the object's resourceVersion"}
	]},
	"example.com/op/broken": {"statuspatch": {"error": "type-checking: undefined: x"}}
}`
	got := parseAudit([]byte(out))
	want := map[string]string{
		"/src/op/ctrl/w.go:48": "blind: Status().Patch of Widget: client.MergeFrom without optimistic lock",
		"/src/op/ctrl/w.go:31": "optimistic: Status().Patch of Widget: MergeFromWithOptimisticLock",
		"/src/op/ctrl/w.go:90": "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseAudit:\n got %q\nwant %q", got, want)
	}
	if got := parseAudit([]byte("statuspatch-lint: no packages")); len(got) != 0 {
		t.Errorf("not JSON: %q, want no finding", got)
	}
}

// A call site whose short file name two files share names no file; nor
// does one built with -trimpath (not absolute).
func TestAuditLineNeedsTheSource(t *testing.T) {
	rememberFile("twice/w.go", "/a/twice/w.go", "example.com/a/twice.F")
	rememberFile("twice/w.go", "/b/twice/w.go", "example.com/b/twice.F")
	rememberFile("trimmed/w.go", "example.com/op/trimmed/w.go", "example.com/op/trimmed.F")
	for _, at := range []string{"twice/w.go:3", "trimmed/w.go:3", "unknown/w.go:3", "no line"} {
		if got, err := Audit(t.Context(), "/nonexistent/statuspatch-lint", at); got != "" || err != nil {
			t.Errorf("Audit(%q) = %q, %v; want nothing", at, got, err)
		}
	}
}

// Without a name (the explorer's Options.Lint) and $STATUSPATCH_LINT,
// the linter is the module's bin/statuspatch-lint, where the README's
// install puts it; "off" is none.
func TestLintBinaryOfTheModule(t *testing.T) {
	mod := t.TempDir()
	bin := filepath.Join(mod, "bin", "statuspatch-lint")
	for _, f := range []struct {
		path string
		mode os.FileMode
	}{{filepath.Join(mod, "go.mod"), 0o644}, {bin, 0o755}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, nil, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(mod, "internal", "controller"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(mod, "internal", "controller"))
	t.Setenv(EnvLint, "")
	if got := Lint(""); got != bin {
		t.Errorf("Lint: %q, want %q", got, bin)
	}
	if got := Lint("off"); got != "" {
		t.Errorf("Lint(off): %q, want none", got)
	}
}
