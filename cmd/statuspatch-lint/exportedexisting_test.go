package main

import (
	"strings"
	"testing"
)

// callerPatcherPkg is a caller already partly on the patcher (issue 80):
// its code makes d's patcher after the Get and flushes it, then hands d
// to the exported helper of another package.
var callerPatcherPkg = callerIn(callerHead+`	p := kindpatch.NewDeploymentStatusPatcher(r.Client, d)
	d.Status.ObservedGeneration = d.Generation
	if err := p.Flush(ctx); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`, "ctrla", "\t\"example.com/realmod/kindpatch\"\n")

// An exported helper of another package (e) whose caller's code already
// makes the object's patcher: the helper takes the patcher, that caller
// passes its own p (one patcher per object life), the other caller makes
// one at its read. At adaadbc9 the group stayed: ctrla "passes d to
// kindpatch.NewDeploymentStatusPatcher at line 21": a patcher of this
// write would be alive at once with it. A second -fix run over the
// first's output changes nothing. The migrated files are
// testdata/exportedhelper/existing/*.golden.
func TestFixPassesTheCallersOwnPatcher(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"ctrla/ctrla.go": callerPatcherPkg},
		"status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher")
	matchGoldens(t, mod, "existing", "", "status/status.go", "ctrla/ctrla.go", "ctrlb/ctrlb.go")
	vetFixed(t, mod)
	if a := readIn(t, mod, "ctrla/ctrla.go"); strings.Count(a, "NewDeploymentStatusPatcher") != 1 {
		t.Errorf("ctrla makes a second patcher of d:\n%s", a)
	}
	before := readIn(t, mod, "status/status.go") + readIn(t, mod, "ctrla/ctrla.go") + readIn(t, mod, "ctrlb/ctrlb.go")
	_, out, _, code := lintWith(t, mod, bin, "export", "-fix", "./...")
	// The module's other packages (stubRealmod's) keep findings: exit 3.
	if after := readIn(t, mod, "status/status.go") + readIn(t, mod, "ctrla/ctrla.go") + readIn(t, mod, "ctrlb/ctrlb.go"); after != before || code != 3 || !strings.Contains(out, "statuspatch-lint: fixed 0 status writes") || strings.Contains(out, "/ctrla/") || strings.Contains(out, "/status/") {
		t.Errorf("a second -fix changed the module or reports its writes (exit %d):\n%s\n%s", code, out, after)
	}
}
