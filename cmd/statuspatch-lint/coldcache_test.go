package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// In a project nothing has built yet (an empty build cache: even the
// standard library is not in it), the export-data driver declines, and
// -fix fell back to the per-package checker, which keeps an exported
// helper whose callers are in other packages. -fix now compiles the
// dependencies into the build cache, says so, and analyzes the whole
// module: the helper moves with its callers, and the module builds.
func TestFixCompilesAColdBuildCache(t *testing.T) {
	bin := buildLint(t)
	mod := exportedHelperModule(t, nil)
	t.Setenv("GOCACHE", t.TempDir())
	_, errOut, _, _ := lintWith(t, mod, bin, "", "-fix", "./...")
	compiling := regexp.MustCompile(`(?m)^statuspatch-lint: -fix: compiling [1-9][0-9]* dependencies into the build cache \(once\) to analyze the whole module$`)
	if !compiling.MatchString(errOut) {
		t.Errorf("-fix with an empty build cache: no line saying it compiles the dependencies:\n%s", errOut)
	}
	const moved = "status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher its callers make with NewDeploymentStatusPatcher, then Flush; its parameter c, then unused, goes)"
	if !strings.Contains(errOut, moved) {
		t.Errorf("-fix with an empty build cache: MarkFailed's write not moved with its callers:\n%s", errOut)
	}
	for _, name := range []string{"ctrla/ctrla.go", "ctrlb/ctrlb.go"} {
		if src := readIn(t, mod, name); !strings.Contains(src, "NewDeploymentStatusPatcher") {
			t.Errorf("%s after -fix does not make the patcher:\n%s", name, src)
		}
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go build ./... after -fix: %v\n%s", err, out)
	}
}
