package main

import (
	"maps"
	"strings"
	"testing"
)

// Issue 80 (R's fault 4 of s103): a caller that writes the object itself
// and hands it to an exported helper of another package (composedPkg:
// its deferred write runs after status.MarkFailed) moved its writes onto
// a patcher made at its read, counting the helper's call a Flush of that
// patcher, when the helper's write stayed: its package not among those
// the run fixes (-fix ./ctrlc), or its group kept by another caller (a
// blind one). The helper's raw Update then moved the resourceVersion
// after the patcher's base, and the deferred Flush was refused on every
// reconcile that failed after the helper (R's kubebuilder repros: the
// Degraded condition no longer stored). At 2ca18b7d all three writes
// moved; now the deferred one stays, naming the call, the helper's write
// and why it stays, and the two before the call move; the module builds.
func TestFixKeepsTheCallersWriteAfterAKeptExportedHelper(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct {
		name     string
		extra    map[string]string
		patterns []string
		why      string
	}{
		{"notfixed", nil, []string{"./ctrlc"}, "package example.com/realmod/status is not among the packages this run fixes"},
		{"groupkept", map[string]string{"blind/blind.go": blindPkg}, []string{"./..."}, "in package example.com/realmod/blind, its caller at line 12 hands on d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			extra := map[string]string{"ctrlc/ctrlc.go": composedPkg}
			maps.Copy(extra, c.extra)
			mod := exportedHelperModule(t, extra)
			_, errOut, _, _ := lintWith(t, mod, bin, "export", append([]string{"-fix"}, c.patterns...)...)
			for _, want := range []string{
				"ctrlc/ctrlc.go:25: kept: handwritten status write to Deployment: use DeploymentStatusPatcher (example.com/realmod/kindpatch) (not moved to the patcher: d is handed to status.MarkFailed at line 45, whose status write at status.go:16 stays (" + c.why,
				"ctrlc/ctrlc.go:31: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)",
				"ctrlc/ctrlc.go:41: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, the decision in Retry)",
			} {
				if !strings.Contains(errOut, want) {
					t.Errorf("-fix: output lacks %q:\n%s", want, errOut)
				}
			}
			got := readIn(t, mod, "ctrlc/ctrlc.go")
			for _, want := range []string{"if uerr := r.Client.Status().Update(ctx, d); uerr != nil {", `return status.MarkFailed(ctx, r.Client, d, "no capacity")`} {
				if !strings.Contains(got, want) {
					t.Errorf("-fix moved %q:\n%s", want, got)
				}
			}
			vetFixed(t, mod)
		})
	}
}
