package main

import (
	"strings"
	"testing"
)

// statusChainPkg is statusPkg whose exported MarkFailed only hands the
// object on to the unexported helper that writes it: a link of its chain
// (migratehelperchain.go), with its callers in two other packages.
const statusChainPkg = `package status

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

// MarkFailed records why the rollout failed.
func MarkFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, reason string) error {
	if reason == "" {
		return nil
	}
	return setFailed(ctx, c, d, int32(len(reason)))
}

func setFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, n int32) error {
	d.Status.Replicas = n
	return c.Status().Update(ctx, d)
}
`

// A chain through an exported function of another package of the module
// moves with its callers there: the write's fix carries the edits of
// ctrla and ctrlb, each making the patcher after its Get, and the module
// builds (testdata/exportedhelper/chain/*.golden). With a caller that
// hands on its own parameter from an exported function of another
// package (blind), nothing moves, and the finding names the call.
func TestFixMovesChainThroughExportedFunction(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"status/status.go": statusChainPkg},
		"status/status.go:23: fixed: move the status write onto DeploymentStatusPatcher (setFailed takes the patcher its callers make with NewDeploymentStatusPatcher, then Flush)")
	matchGoldens(t, mod, "chain", "", "status/status.go", "ctrla/ctrla.go", "ctrlb/ctrlb.go")
	vetFixed(t, mod)

	mod = exportedHelperModule(t, map[string]string{"status/status.go": statusChainPkg, "blind/blind.go": blindPkg})
	before := readIn(t, mod, "status/status.go")
	_, errOut, _, _ := lintWith(t, mod, bin, "export", "-fix", "./...")
	if want := "(not moved to the patcher: d is a parameter of setFailed, handed on by MarkFailed, exported, moves with all its callers or none, and in package example.com/realmod/blind, its caller at line 12 hands on d, a parameter of Fail, and Fail is exported, in another package than the write: -fix moves an exported function of a chain only in the write's package: have MarkFailed take a *kindpatch.DeploymentStatusPatcher in place of d and pass it on"; !strings.Contains(errOut, want) {
		t.Errorf("-fix with a blind caller: output lacks %q:\n%s", want, errOut)
	}
	if after := readIn(t, mod, "status/status.go"); after != before {
		t.Errorf("-fix changed the chain that stays:\n%s", after)
	}
}

// statusMethodPkg adds to statusPkg an exported method that hands the
// object on (kueue's LocalQueueReconciler.UpdateStatusIfChanged), called
// in its own package and, through a receiver built in the call, in ctrlm.
const statusMethodPkg = statusPkg + `
type Updater struct{ C client.Client }

// Mark records why the rollout failed.
func (u *Updater) Mark(ctx context.Context, d *appsv1.Deployment, reason string) error {
	return u.set(ctx, d, int32(len(reason)))
}

func (u *Updater) set(ctx context.Context, d *appsv1.Deployment, n int32) error {
	d.Status.Replicas = n
	return u.C.Status().Update(ctx, d)
}

// Sync reads the object and marks it, in the method's own package.
func (u *Updater) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := u.C.Get(ctx, key, d); err != nil {
		return err
	}
	return u.Mark(ctx, d, "own")
}
`

const ctrlmPkg = `package ctrlm

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
	return (&status.Updater{C: r.Client}).Mark(ctx, d, "no capacity")
}
`

// An exported method of a chain moves with its callers in its own
// package and in others (the receiver's client their patcher's); the
// module builds (testdata/exportedhelper/chain/method_*.golden).
func TestFixMovesChainThroughExportedMethod(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"status/status.go": statusMethodPkg, "ctrlm/ctrlm.go": ctrlmPkg},
		"status/status.go:28: fixed: move the status write onto DeploymentStatusPatcher (set takes the patcher its callers make with NewDeploymentStatusPatcher, then Flush)")
	matchGoldens(t, mod, "chain", "method_", "status/status.go", "ctrlm/ctrlm.go")
	vetFixed(t, mod)
}

// statusChainUnsentPkg is statusChainPkg whose exported link clears the
// replicas (a spec change) before handing the object on: the Update left
// it unsent, and so must every caller's patcher, in every package.
const statusChainUnsentPkg = `package status

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

// MarkFailed scales the rollout to its default and records why it failed.
func MarkFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, reason string) error {
	d.Spec.Replicas = nil
	return setFailed(ctx, c, d, int32(len(reason)))
}

func setFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, n int32) error {
	d.Status.Replicas = n
	return c.Status().Update(ctx, d)
}
`

// A chain through an exported link that changes the spec before handing
// the object on moves with its callers in other packages, each making
// its patcher with patcher.WithNonStatusChangesUnsent() (HelperFact.Unsent):
// without it their Flush would refuse the link's change, which the
// Update left unsent. At e417591 they made it without the option.
func TestFixMovesUnsentChainThroughExportedFunction(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"status/status.go": statusChainUnsentPkg, "kindpatch/kindpatch.go": optsKindpatchPkg},
		"status/status.go:21: fixed: move the status write onto DeploymentStatusPatcher")
	for _, name := range []string{"ctrla/ctrla.go", "ctrlb/ctrlb.go"} {
		if got := readIn(t, mod, name); !strings.Contains(got, "kindpatch.NewDeploymentStatusPatcher(r.Client, d, patcher.WithNonStatusChangesUnsent())") {
			t.Errorf("%s after -fix does not make its patcher with patcher.WithNonStatusChangesUnsent():\n%s", name, got)
		}
	}
	vetFixed(t, mod)
}

// statusChainUnsentTwoPkg is statusChainUnsentPkg with a second exported
// helper, MarkOK, that changes only the status.
const statusChainUnsentTwoPkg = statusChainUnsentPkg + `
// MarkOK records the rollout's replicas.
func MarkOK(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	d.Status.Replicas = 7
	return c.Status().Update(ctx, d)
}
`

// callerTwoPkg calls MarkFailed, whose link leaves a spec change unsent,
// and MarkOK, on one object, in both orders.
const callerTwoPkg = `package ctrla

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
	if err := status.MarkFailed(ctx, r.Client, d, "no capacity"); err != nil {
		return err
	}
	return status.MarkOK(ctx, r.Client, d)
}

func (r *Reconciler) Rev(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	if err := status.MarkOK(ctx, r.Client, d); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`

// A caller in another package of an exported link whose change is left
// unsent (HelperFact.Unsent) and of another exported helper makes one
// patcher for both, with patcher.WithNonStatusChangesUnsent()
// (importedUnsent). At 8e2b241 each group made its own at the read, one
// with the option and one without: "no new variables on left side of :=".
func TestFixSharesUnsentPatcherAcrossExportedHelpers(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"status/status.go": statusChainUnsentTwoPkg, "kindpatch/kindpatch.go": optsKindpatchPkg, "ctrla/ctrla.go": callerTwoPkg},
		"status/status.go:21: fixed: move the status write", "status/status.go:27: fixed: move the status write")
	got := readIn(t, mod, "ctrla/ctrla.go")
	if n := strings.Count(got, "dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d, patcher.WithNonStatusChangesUnsent())"); n != 2 || strings.Contains(got, "NewDeploymentStatusPatcher(r.Client, d)") {
		t.Errorf("ctrla.go after -fix: want one patcher with patcher.WithNonStatusChangesUnsent() in each function, got %d:\n%s", n, got)
	}
	vetFixed(t, mod)
}
