package main

import (
	"strings"
	"testing"
)

// betweenPkg hands the object it read to the exported helper before its
// blind patch: the patch's move onto a patcher made at the read rests on
// the helper's write moving too (migrate.HelperNeed).
const betweenPkg = `package ctrlk

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	if err := status.MarkFailed(ctx, r.Client, d, "first"); err != nil {
		return err
	}
	patch := client.MergeFrom(d.DeepCopy())
	d.Status.Replicas = 3
	return r.Client.Status().Patch(ctx, d, patch)
}
`

// Issue 80 (A2's run of T's project A): -ci ./... before -fix said of a
// blind MergeFrom (ctrlc.go:41) that the caller's other status write
// "cannot be moved" (its object handed to an exported helper of another
// package, "a write -fix does not move with the caller's"), and -fix ./...
// on the same tree then moved them all with the helper's. -ci planned no
// write it does not report (the helper's Update, optimistic), so its
// callers did not know the helper's move. Now -ci plans them as -fix
// does and resolves their groups: ctrlc.go:41 names its function's
// writes that move with it (ctrlcBlind), true of -fix; ctrlk.go:25,
// whose move rests on the helper's, says that -ci -fix does not move the
// helper and -fix does; -ci -fix locks both in place.
func TestCISaysWhatFixDoesOfAnExportedHelpersCaller(t *testing.T) {
	bin := buildLint(t)
	extra := map[string]string{"ctrlc/ctrlc.go": composedPkg, "ctrlk/ctrlk.go": betweenPkg}
	mod := exportedHelperModule(t, extra)
	const ctrlk = "ctrlk/ctrlk.go:25:9: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (not moved to the patcher: d is handed to status.MarkFailed at line 20, whose status write at status.go:16 stays (-ci does not report it, and -ci -fix moves only the writes -ci reports; -fix without -ci moves them together)"
	_, errOut, _, _ := lintWith(t, mod, bin, "export", "-ci", "./...")
	if strings.Contains(errOut, "cannot be moved") || !strings.Contains(errOut, ctrlcBlind) || !strings.Contains(errOut, ctrlk) {
		t.Errorf("-ci ./...: want %q, %q, and no \"cannot be moved\":\n%s", ctrlcBlind, ctrlk, errOut)
	}
	_, errOut, _, _ = lintWith(t, mod, bin, "export", "./...")
	if strings.Contains(errOut, "not moved to the patcher") && (strings.Contains(errOut, "ctrlc/ctrlc.go") || strings.Contains(errOut, "ctrlk/ctrlk.go")) {
		t.Errorf("./...: says a write -fix moves stays:\n%s", errOut)
	}
	ci := exportedHelperModule(t, extra)
	_, errOut, _, _ = lintWith(t, ci, bin, "export", "-ci", "-fix", "./...")
	if want := "ctrlk/ctrlk.go:25: fixed: add client.MergeFromWithOptimisticLock"; !strings.Contains(errOut, want) {
		t.Errorf("-ci -fix: output lacks %q:\n%s", want, errOut)
	}
	if got := readIn(t, ci, "ctrlk/ctrlk.go") + readIn(t, ci, "ctrlc/ctrlc.go"); strings.Count(got, "status.MarkFailed(ctx, r.Client, d, ") != 2 {
		t.Errorf("-ci -fix changed the calls of the helper it does not move:\n%s", got)
	}
	vetFixed(t, ci)
	_, errOut, _, _ = lintWith(t, mod, bin, "export", "-fix", "./...")
	for _, want := range []string{"status/status.go:16: fixed:", "ctrlc/ctrlc.go:25: fixed:", "ctrlc/ctrlc.go:31: fixed:", "ctrlc/ctrlc.go:41: fixed:", "ctrlk/ctrlk.go:25: fixed: move the status write onto DeploymentStatusPatcher"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-fix: output lacks %q:\n%s", want, errOut)
		}
	}
	vetFixed(t, mod)
}

// ctrlcBlind is -ci's finding of composedPkg's blind patch, which -ci -fix
// locks in place (TestCIFixMovesNoWriteApartFromItsObjectsOthers).
const ctrlcBlind = "ctrlc/ctrlc.go:41:13: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (not moved to the patcher: the status writes at lines 25 and 31 move with it onto one patcher, and -ci does not report them (-ci -fix moves only the writes -ci reports; -fix without -ci moves them together))\n"

// aloneComposedPkg is composedPkg without the exported helper's call:
// the function's own writes of d alone, the three Updates -ci does not
// report and the blind patch it does.
var aloneComposedPkg = strings.NewReplacer(
	// its lines as composedPkg's, the patchers' package a dependency
	"\t\"example.com/realmod/status\"\n", "\t\"example.com/realmod/kindpatch\"\n",
	`return status.MarkFailed(ctx, r.Client, d, "no capacity")`, "return nil").Replace(composedPkg) +
	"\nvar _ = kindpatch.NewDeploymentStatusPatcher\n"

// Issue 80 (A2's run of T's project A, order_controller.go:145): -ci -fix
// moved the blind patch, the one write of d -ci reports, alone onto a
// patcher made at the Get, and left the function's three Updates of d
// (one deferred) raw beside it: each raw write leaves the patcher's base
// behind, and its next Flush conflicts. -fix moves them together; -ci
// -fix moves only what -ci reports, so the patch is locked in place and
// -ci says why it is not moved. With the exported helper's call (A's
// shape) and without it (on main at 1ae2611e, too).
func TestCIFixMovesNoWriteApartFromItsObjectsOthers(t *testing.T) {
	bin := buildLint(t)
	for name, src := range map[string]string{"helper": composedPkg, "alone": aloneComposedPkg} {
		t.Run(name, func(t *testing.T) {
			extra := map[string]string{"ctrlc/ctrlc.go": src}
			mod := exportedHelperModule(t, extra)
			_, errOut, _, _ := lintWith(t, mod, bin, "export", "-ci", "./...")
			if strings.Contains(errOut, "cannot be moved") || !strings.Contains(errOut, ctrlcBlind) {
				t.Errorf("-ci ./...: want %q and no \"cannot be moved\":\n%s", ctrlcBlind, errOut)
			}
			_, errOut, _, _ = lintWith(t, mod, bin, "export", "-ci", "-fix", "./...")
			if want := "ctrlc/ctrlc.go:41: fixed: add client.MergeFromWithOptimisticLock"; !strings.Contains(errOut, want) {
				t.Errorf("-ci -fix: output lacks %q:\n%s", want, errOut)
			}
			if got := readIn(t, mod, "ctrlc/ctrlc.go"); strings.Count(got, "Patcher") > strings.Count(src, "Patcher") || strings.Count(got, "r.Client.Status().Update(ctx, d)") != 2 {
				t.Errorf("-ci -fix: a patcher of d beside its raw writes, or they changed:\n%s", got)
			}
			vetFixed(t, mod)
			fixed := exportedHelperModule(t, extra)
			_, errOut, _, _ = lintWith(t, fixed, bin, "export", "-fix", "./...")
			for _, line := range []string{"25", "31", "41"} {
				if want := "ctrlc/ctrlc.go:" + line + ": fixed: move the status write onto DeploymentStatusPatcher"; !strings.Contains(errOut, want) {
					t.Errorf("-fix: output lacks %q:\n%s", want, errOut)
				}
			}
			if got := readIn(t, fixed, "ctrlc/ctrlc.go"); strings.Contains(got, "Status().Update(") || strings.Contains(got, "Status().Patch(") {
				t.Errorf("-fix left a raw write of d:\n%s", got)
			}
			vetFixed(t, fixed)
		})
	}
}
