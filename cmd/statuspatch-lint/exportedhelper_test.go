package main

import (
	"strings"
	"testing"
)

// statusUsedPkg is statusPkg whose helper reads with its client too.
const statusUsedPkg = `package status

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

// MarkFailed records why the rollout failed, after the previous one's.
func MarkFailed(ctx context.Context, c client.Client, d *appsv1.Deployment, reason string) error {
	prev := &appsv1.Deployment{}
	if err := c.Get(ctx, client.ObjectKey{Name: "previous"}, prev); err != nil {
		return err
	}
	d.Status.Replicas = prev.Status.Replicas + int32(len(reason))
	return c.Status().Update(ctx, d)
}
`

// -fix moves an exported helper's write with its callers in other
// packages: the helper takes the patcher, each caller makes it after its
// own Get (one Flush, from the caller's read), and the module builds. The
// client parameter goes when the write was its only use (an unused
// parameter fails unparam and revive's unused-parameter), from the helper
// and every caller; it stays when the helper uses it otherwise. The
// migrated files are testdata/exportedhelper/<case>/*.golden.
func TestFixMovesExportedHelperWithItsCallers(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct {
		name, status, fixed string
	}{
		{"unused", statusPkg, "status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher its callers make with NewDeploymentStatusPatcher, then Flush; its parameter c, then unused, goes)"},
		{"used", statusUsedPkg, "status/status.go:20: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher its callers make with NewDeploymentStatusPatcher, then Flush)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod, _ := fixExported(t, bin, map[string]string{"status/status.go": c.status}, c.fixed)
			matchGoldens(t, mod, c.name, "", "status/status.go", "ctrla/ctrla.go", "ctrlb/ctrlb.go")
			vetFixed(t, mod)
		})
	}
}

// When one caller cannot take the patcher (it did not read the object),
// a test file calls the helper, or a package calling it is not among
// those analyzed, nothing of the group moves, and the finding says why
// and names the API to move it by hand. The finding left after -fix
// says the same when -fix moved another write of a caller (ctrla's own
// helper markLocal): at 20b6c52 the report after the fixes said ctrla
// "passes d to kindpatch.NewDeploymentStatusPatcher at line 21", a line
// -fix wrote.
func TestFixLeavesExportedHelperUnlessAllCallersMove(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct {
		extra    map[string]string
		patterns []string
		why      string
	}{
		{map[string]string{"blind/blind.go": blindPkg}, []string{"./..."}, "in package example.com/realmod/blind, its caller at line 12 hands on d, a parameter of Fail, and Fail is exported, in another package than the write: -fix moves an exported function of a chain only in the write's package"},
		{map[string]string{"status/status_test.go": statusTest}, []string{"./..."}, "the test file example.com/realmod/status/status_test.go uses MarkFailed, and -fix loads no test file"},
		{nil, []string{"./status", "./ctrla"}, "package example.com/realmod/ctrlb imports example.com/realmod/status and was not analyzed (run -fix on ./... at the module's root)"},
		{map[string]string{"zblind/blind.go": strings.Replace(blindPkg, "package blind", "package zblind", 1), "ctrla/ctrla.go": callerLocalPkg}, []string{"./..."}, "in package example.com/realmod/zblind, its caller at line 12 hands on d, a parameter of Fail"},
		{map[string]string{"status/status_test.go": statusTest, "ctrla/ctrla.go": callerLocalPkg}, []string{"./..."}, "the test file example.com/realmod/status/status_test.go uses MarkFailed, and -fix loads no test file"},
	} {
		mod := exportedHelperModule(t, c.extra)
		stays := "status/status.go"
		if c.extra["ctrla/ctrla.go"] == "" {
			stays = "ctrla/ctrla.go" // not markLocal's caller
		}
		before := readIn(t, mod, stays) + readIn(t, mod, "status/status.go")
		_, errOut, _, _ := lintWith(t, mod, bin, "export", append([]string{"-fix"}, c.patterns...)...)
		want := "status/status.go:16:9: handwritten status write to Deployment: use DeploymentStatusPatcher (example.com/realmod/kindpatch) (not moved to the patcher: d is a parameter of MarkFailed, exported, moves with all its callers or none, and " +
			c.why
		if !strings.Contains(errOut, want) || !strings.Contains(errOut, ": have it take a *kindpatch.DeploymentStatusPatcher in place of d (each caller makes it with kindpatch.NewDeploymentStatusPatcher where it reads d) and call its Flush(ctx) in place of this write)") {
			t.Errorf("-fix: output lacks %q and the API:\n%s", want, errOut)
		}
		if after := readIn(t, mod, stays) + readIn(t, mod, "status/status.go"); after != before {
			t.Errorf("-fix changed the group that stays:\n%s", after)
		}
	}
}

// composedPkg composes, on one object in one function, what kubebuilder's
// tutorial does: a deferred write of the error (a named result), an
// Update, the re-Get "to avoid the object has been modified", a decision
// patched once, and the shared helper of another package.
const composedPkg = `package ctrlc

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) (err error) {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	defer func() {
		if err == nil {
			return
		}
		d.Status.Replicas = -1
		if uerr := r.Client.Status().Update(ctx, d); uerr != nil {
			err = uerr
		}
	}()
	if d.Status.ObservedGeneration == 0 {
		d.Status.ObservedGeneration = d.Generation
		if err := r.Client.Status().Update(ctx, d); err != nil {
			return err
		}
		if err := r.Client.Get(ctx, key, d); err != nil {
			return err
		}
	}
	if d.Status.Replicas == 0 {
		patch := client.MergeFrom(d.DeepCopy())
		d.Status.Replicas = int32(len(d.Name))
		if err := r.Client.Status().Patch(ctx, d, patch); err != nil {
			return err
		}
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`

// A caller that writes the object's status itself and calls the exported
// helper (issue 80's tutorial project: at e5f7ea8 all four writes stayed,
// the caller's "may change more than its status" for the helper's call,
// the helper's for "its caller also writes"): one patcher made at the
// Get, the re-Get its FetchInto (read into d, assigned to the patcher on
// success: the deferred literal flushes it), the deferred write its Flush, the decision
// and its guard in its Retry, and the helper given it. The module builds;
// the migrated caller is testdata/exportedhelper/composed/ctrlc_ctrlc.go.golden.
func TestFixComposesExportedHelperWithTheCallersWrites(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, map[string]string{"ctrlc/ctrlc.go": composedPkg},
		"status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher",
		"ctrlc/ctrlc.go:25: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)",
		"ctrlc/ctrlc.go:31: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)",
		"ctrlc/ctrlc.go:41: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, the decision in Retry)")
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, ": kept: ") && (strings.Contains(l, "/ctrlc/") || strings.Contains(l, "/status/")) {
			t.Errorf("-fix kept a write: %s", l)
		}
	}
	matchGoldens(t, mod, "composed", "", "status/status.go", "ctrlc/ctrlc.go")
	vetFixed(t, mod)
}

// composedValuePkg is composedPkg on kubebuilder's tutorial form: the
// object a local value, passed as &d (issue 80 B1).
const composedValuePkg = `package ctrlv

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) (err error) {
	var d appsv1.Deployment
	if err := r.Client.Get(ctx, key, &d); err != nil {
		return err
	}
	defer func() {
		if err == nil {
			return
		}
		d.Status.Replicas = -1
		if uerr := r.Client.Status().Update(ctx, &d); uerr != nil {
			err = uerr
		}
	}()
	if d.Status.ObservedGeneration == 0 {
		d.Status.ObservedGeneration = d.Generation
		if err := r.Client.Status().Update(ctx, &d); err != nil {
			return err
		}
		if err := r.Client.Get(ctx, key, &d); err != nil {
			return err
		}
	}
	if d.Status.Replicas == 0 {
		patch := client.MergeFrom(d.DeepCopy())
		d.Status.Replicas = int32(len(d.Name))
		if err := r.Client.Status().Patch(ctx, &d, patch); err != nil {
			return err
		}
	}
	return status.MarkFailed(ctx, r.Client, &d, "no capacity")
}
`

// The composed caller on the tutorial's value form (issue 80 B1: at
// cc13c6a every write stayed, "the object is &d, the address of a local
// value"): the patcher made over &d holds d itself; the re-Get is
// FetchDeploymentStatusPatcherInto(ctx, r.Client, key, &d), read into d
// and assigned to the one patcher; the helper of another package is
// given the patcher. The module builds; the migrated
// caller is testdata/exportedhelper/composedvalue/ctrlv_ctrlv.go.golden.
func TestFixComposesExportedHelperWithAValueObject(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, map[string]string{"ctrlv/ctrlv.go": composedValuePkg},
		"status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher",
		"ctrlv/ctrlv.go:25: fixed: move the status write onto DeploymentStatusPatcher",
		"ctrlv/ctrlv.go:31: fixed: move the status write onto DeploymentStatusPatcher",
		"ctrlv/ctrlv.go:41: fixed: move the status write onto DeploymentStatusPatcher")
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, ": kept: ") && (strings.Contains(l, "/ctrlv/") || strings.Contains(l, "/status/")) {
			t.Errorf("-fix kept a write: %s", l)
		}
	}
	matchGoldens(t, mod, "composedvalue", "", "ctrlv/ctrlv.go")
	vetFixed(t, mod)
}

// callerLocalPkg calls MarkFailed and a status helper of its own package
// on one object.
const callerLocalPkg = `package ctrla

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
	if err := r.markLocal(ctx, d); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}

func (r *Reconciler) markLocal(ctx context.Context, d *appsv1.Deployment) error {
	d.Status.Replicas = 4
	return r.Client.Status().Update(ctx, d)
}
`

// An exported helper moves with a caller that also hands the object to a
// helper of its own package, both taking the patcher it makes at its read.
// At a52da69 the caller's part (ExportedCallers) asked the own helper's
// fix without the module's TestRefs: "test files are not loaded", so
// MarkFailed stayed, its reason saying markLocal's write "does not move
// with the caller's", which moved.
func TestFixMovesExportedHelperBesideOwnHelper(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"ctrla/ctrla.go": callerLocalPkg},
		"status/status.go:16: fixed: move the status write", "ctrla/ctrla.go:28: fixed: move the status write")
	got := readIn(t, mod, "ctrla/ctrla.go")
	for _, want := range []string{"dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d)\n", "r.markLocal(ctx, dPatcher)", "status.MarkFailed(ctx, dPatcher, \"no capacity\")"} {
		if strings.Count(got, want) != 1 {
			t.Errorf("ctrla.go after -fix: want %q once:\n%s", want, got)
		}
	}
	vetFixed(t, mod)
}
