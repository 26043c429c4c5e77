package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakefileBlockInstallsATool runs make on the block init appends to a
// Makefile without kubebuilder v4's go-install-tool (kubebuilder v3's, a
// project's own): make statuspatch-gen installs the tool, with a go
// command that stands in for go install, and make again installs nothing.
// Issue 80: the macro's line ends were written as two backslashes, and
// every such Makefile's make generate stopped at "/bin/sh: 1: \: not
// found"; the goldens carried it and no test ran make on them.
func TestMakefileBlockInstallsATool(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on PATH")
	}
	dir := t.TempDir()
	stubs := filepath.Join(t.TempDir(), "path")
	if err := os.MkdirAll(stubs, 0o755); err != nil {
		t.Fatal(err)
	}
	// go env prints GOTOOLCHAIN and GOVERSION; go install writes
	// $GOBIN/<the package's last element>.
	goStub := "#!/bin/sh\n" +
		"case $1 in\n" +
		"env) printf 'auto\\ngo1.26.0\\n' ;;\n" +
		"install) p=${2%@*}; printf '#!/bin/sh\\n' >\"$GOBIN/${p##*/}\"; chmod +x \"$GOBIN/${p##*/}\"; echo \"installed $2\" ;;\n" +
		"*) echo \"unexpected: go $*\" >&2; exit 1 ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(stubs, "go"), []byte(goStub), 0o755); err != nil {
		t.Fatal(err)
	}
	o := blockOptions{runs: []genRun{{paths: "./api/...", output: "./internal/patchers"}}, localbin: true, localbinRule: true, installTool: true}
	mk := "YEAR ?= 2026\n" + makefileBlock("v9.9.9", o)
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	make := func() string {
		t.Helper()
		c := exec.Command("make", "statuspatch-gen")
		c.Dir = dir
		c.Env = append(os.Environ(), "PATH="+stubs+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("make statuspatch-gen: %v\n%s\nthe Makefile:\n%s", err, out, mk)
		}
		return string(out)
	}
	if out := make(); !strings.Contains(out, "installed github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v9.9.9") {
		t.Errorf("make statuspatch-gen did not go install it:\n%s", out)
	}
	target, err := os.Readlink(filepath.Join(dir, "bin", "statuspatch-gen"))
	if err != nil || filepath.Base(target) != "statuspatch-gen-v9.9.9" {
		t.Errorf("bin/statuspatch-gen links to %q (%v), want bin/statuspatch-gen-v9.9.9", target, err)
	}
	if out := make(); strings.Contains(out, "installed") {
		t.Errorf("make statuspatch-gen again installed it again:\n%s", out)
	}
}
