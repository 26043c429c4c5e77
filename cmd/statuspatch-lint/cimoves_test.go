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
// whose move rests on the helper's, names the helper's write. Since
// s105 -ci -fix moves them too, the helper's group whole (until then it
// locked both in place, and under a real manager the lock conflicted
// behind a cached re-Get: the next reconcile decided again).
func TestCISaysWhatFixDoesOfAnExportedHelpersCaller(t *testing.T) {
	bin := buildLint(t)
	extra := map[string]string{"ctrlc/ctrlc.go": composedPkg, "ctrlk/ctrlk.go": betweenPkg}
	mod := exportedHelperModule(t, extra)
	const ctrlk = "ctrlk/ctrlk.go:25:9: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (-fix moves it with status.MarkFailed's status write at status.go:16 and its callers', which -ci does not report, onto one patcher, and so does -ci -fix)\n"
	_, errOut, _, _ := lintWith(t, mod, bin, "export", "-ci", "./...")
	if strings.Contains(errOut, "cannot be moved") || !strings.Contains(errOut, ctrlcBlindHelper) || !strings.Contains(errOut, ctrlk) {
		t.Errorf("-ci ./...: want %q, %q, and no \"cannot be moved\":\n%s", ctrlcBlindHelper, ctrlk, errOut)
	}
	_, errOut, _, _ = lintWith(t, mod, bin, "export", "./...")
	if strings.Contains(errOut, "not moved to the patcher") && (strings.Contains(errOut, "ctrlc/ctrlc.go") || strings.Contains(errOut, "ctrlk/ctrlk.go")) {
		t.Errorf("./...: says a write -fix moves stays:\n%s", errOut)
	}
	ci := exportedHelperModule(t, extra)
	_, errOut, _, _ = lintWith(t, ci, bin, "export", "-ci", "-fix", "./...")
	for _, want := range []string{"ctrlk/ctrlk.go:25: fixed: move the status write onto DeploymentStatusPatcher", "ctrlc/ctrlc.go:41: fixed: move the status write onto DeploymentStatusPatcher"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-ci -fix: output lacks %q:\n%s", want, errOut)
		}
	}
	ciFixedWhole(t, ci, "ctrlc/ctrlc.go", "ctrlk/ctrlk.go", "ctrla/ctrla.go", "ctrlb/ctrlb.go", "status/status.go")
	vetFixed(t, ci)
	_, errOut, _, _ = lintWith(t, mod, bin, "export", "-fix", "./...")
	for _, want := range []string{"status/status.go:16: fixed:", "ctrlc/ctrlc.go:25: fixed:", "ctrlc/ctrlc.go:31: fixed:", "ctrlc/ctrlc.go:41: fixed:", "ctrlk/ctrlk.go:25: fixed: move the status write onto DeploymentStatusPatcher"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-fix: output lacks %q:\n%s", want, errOut)
		}
	}
	vetFixed(t, mod)
}

// ciFixedWhole fails when a file -ci -fix changed in mod still writes the
// object raw beside its patcher: a Status() write or a helper's call
// handed the client and the object.
func ciFixedWhole(t *testing.T, mod string, files ...string) {
	t.Helper()
	for _, f := range files {
		got := readIn(t, mod, f)
		if strings.Contains(got, "Status().Update(") || strings.Contains(got, "Status().Patch(") || strings.Contains(got, "MarkFailed(ctx, r.Client, d") {
			t.Errorf("-ci -fix left a raw write of d in %s:\n%s", f, got)
		}
	}
}

// ctrlcBlindHelper is ctrlcBlind with composedPkg's call of the exported
// helper, whose group the patcher is passed to.
const ctrlcBlindHelper = "ctrlc/ctrlc.go:41:13: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (-fix moves it with the status writes at lines 25 and 31, which -ci does not report, onto one patcher, and so does -ci -fix) (-fix moves it with status.MarkFailed's status write at status.go:16 and its callers', which -ci does not report, onto one patcher, and so does -ci -fix)\n"

// ctrlcBlind is -ci's finding of aloneComposedPkg's blind patch, which
// -ci -fix moves with the function's other writes of d
// (TestCIFixMovesNoWriteApartFromItsObjectsOthers).
const ctrlcBlind = "ctrlc/ctrlc.go:41:13: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (-fix moves it with the status writes at lines 25 and 31, which -ci does not report, onto one patcher, and so does -ci -fix)\n"

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
// behind, and its next Flush conflicts. From s104 the patch was locked in
// place instead; under a real manager (A, three runs) that lock
// conflicted behind the cached re-Get, and the next reconcile decided
// again, 3 times a run. Since s105 -ci -fix moves the function's writes
// of d with it, as -fix does, and with the exported helper's group its
// call passes the patcher to. With the exported helper's call (A's
// shape) and without it.
func TestCIFixMovesNoWriteApartFromItsObjectsOthers(t *testing.T) {
	bin := buildLint(t)
	for name, src := range map[string]string{"helper": composedPkg, "alone": aloneComposedPkg} {
		t.Run(name, func(t *testing.T) {
			extra := map[string]string{"ctrlc/ctrlc.go": src}
			mod := exportedHelperModule(t, extra)
			want := ctrlcBlind
			if name == "helper" {
				want = ctrlcBlindHelper
			}
			_, errOut, _, _ := lintWith(t, mod, bin, "export", "-ci", "./...")
			if strings.Contains(errOut, "cannot be moved") || !strings.Contains(errOut, want) {
				t.Errorf("-ci ./...: want %q and no \"cannot be moved\":\n%s", want, errOut)
			}
			_, errOut, _, _ = lintWith(t, mod, bin, "export", "-ci", "-fix", "./...")
			if want := "ctrlc/ctrlc.go:41: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, the decision in Retry) (with the status writes at lines 25 and 31, which -ci does not report)"; !strings.Contains(errOut, want) {
				t.Errorf("-ci -fix: output lacks %q:\n%s", want, errOut)
			}
			if strings.Contains(errOut, "ctrlc/ctrlc.go:25") || strings.Contains(errOut, "ctrlc/ctrlc.go:31") {
				t.Errorf("-ci -fix reports a write it does not report:\n%s", errOut)
			}
			ciFixedWhole(t, mod, "ctrlc/ctrlc.go")
			if name == "helper" {
				ciFixedWhole(t, mod, "status/status.go", "ctrla/ctrla.go", "ctrlb/ctrlb.go")
			}
			vetFixed(t, mod)
			_, errOut, _, _ = lintWith(t, mod, bin, "export", "-ci", "./...")
			if strings.Contains(errOut, "ctrlc/ctrlc.go") {
				t.Errorf("-ci after -ci -fix: ctrlc still reported:\n%s", errOut)
			}
			fixed := exportedHelperModule(t, extra)
			_, errOut, _, _ = lintWith(t, fixed, bin, "export", "-fix", "./...")
			for _, line := range []string{"25", "31", "41"} {
				if want := "ctrlc/ctrlc.go:" + line + ": fixed: move the status write onto DeploymentStatusPatcher"; !strings.Contains(errOut, want) {
					t.Errorf("-fix: output lacks %q:\n%s", want, errOut)
				}
			}
			ciFixedWhole(t, fixed, "ctrlc/ctrlc.go")
			vetFixed(t, fixed)
		})
	}
}

// strandedCallerPkg writes d itself before it hands it to the exported
// helper: -fix passes the helper the patcher of that Update, which -ci
// does not report.
var strandedCallerPkg = strings.Replace(callerHead, "IMPORTS\n", "", 1) + `	d.Status.ObservedGeneration = d.Generation
	if err := r.Client.Status().Update(ctx, d); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "stranded")
}
`

// A reported write whose move rests on an exported helper's group, one of
// whose callers passes it the patcher of its own write -ci does not
// report (and no reported write moves along): -ci -fix would leave that
// caller's write raw beside the patcher it passes, so the reported write
// is locked in place, and -ci says why.
func TestCIFixLocksWhereAHelpersCallerIsLeft(t *testing.T) {
	bin := buildLint(t)
	extra := map[string]string{"ctrlk/ctrlk.go": betweenPkg, "ctrld/ctrld.go": strings.Replace(strandedCallerPkg, "package NAME", "package ctrld", 1)}
	mod := exportedHelperModule(t, extra)
	const ctrlk = "ctrlk/ctrlk.go:25:9: blind: Status().Patch of Deployment: client.MergeFrom without optimistic lock (not moved to the patcher: d is handed to status.MarkFailed at line 20, whose status write at status.go:16 stays (its caller's own status write at ctrld.go:20, which -ci does not report, would share the patcher it passes; -ci -fix moves only the writes -ci reports and those of their objects' patchers, -fix without -ci moves them together)"
	_, errOut, _, _ := lintWith(t, mod, bin, "export", "-ci", "./...")
	if !strings.Contains(errOut, ctrlk) {
		t.Errorf("-ci ./...: want %q:\n%s", ctrlk, errOut)
	}
	_, errOut, _, _ = lintWith(t, mod, bin, "export", "-ci", "-fix", "./...")
	if want := "ctrlk/ctrlk.go:25: fixed: add client.MergeFromWithOptimisticLock"; !strings.Contains(errOut, want) {
		t.Errorf("-ci -fix: output lacks %q:\n%s", want, errOut)
	}
	if got := readIn(t, mod, "ctrld/ctrld.go") + readIn(t, mod, "status/status.go"); strings.Contains(got, "Flush(") || strings.Contains(got, "Patcher(") {
		t.Errorf("-ci -fix moved the helper or its stranded caller:\n%s", got)
	}
	vetFixed(t, mod)
}
