package main

import (
	"strings"
	"testing"
)

// failCondPkg is a status helper of its own package that only changes the
// status it is given (its ParamsFact: statusOnly[0]) and writes nothing.
const failCondPkg = `package cond

import appsv1 "k8s.io/api/apps/v1"

// MarkFailed records the failure in d's status.
func MarkFailed(d *appsv1.Deployment, err error) {
	d.Status.Replicas = -int32(len(err.Error()))
}
`

// deferCondPkg is F's Order (issue 80, U4's F5): a deferred failure write
// whose change is cond.MarkFailed, an Update, the tutorial's re-Get, an
// Update after it, and the exported writing helper status.MarkFailed.
const deferCondPkg = `package ctrld

import (
	"context"

	"example.com/realmod/cond"
	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) (retErr error) {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	defer func() {
		if retErr == nil {
			return
		}
		cond.MarkFailed(d, retErr)
		_ = r.Client.Status().Update(ctx, d)
	}()
	d.Status.ObservedGeneration = d.Generation
	if err := r.Client.Status().Update(ctx, d); err != nil {
		return err
	}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	d.Status.Replicas = 1
	if err := r.Client.Status().Update(ctx, d); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`

// A deferred failure write whose change is a status-only helper of
// another package, before a re-Get, with the exported writing helper
// after it (F's Order): at faa5cbbb every write of d stayed, and the
// exported helper's with them, the reason blaming the re-read ("which
// -fix cannot assign again"); the re-read now assigns the patcher again
// (dPatcher = dPatcherFetched) as it does for a change written in the
// literal, the helper takes that patcher, and the module builds. The
// migrated caller is testdata/exportedhelper/defercond/ctrld_ctrld.go.golden.
func TestFixMovesDeferredStatusHelperBeforeAReGet(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, map[string]string{"cond/cond.go": failCondPkg, "ctrld/ctrld.go": deferCondPkg},
		"status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher",
		"ctrld/ctrld.go:26: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)",
		"ctrld/ctrld.go:29: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)",
		"ctrld/ctrld.go:36: fixed: move the status write onto DeploymentStatusPatcher (FetchDeploymentStatusPatcherInto at the re-read, then Flush)")
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, "handwritten status write") && (strings.Contains(l, "/ctrld/") || strings.Contains(l, "/status/") || strings.Contains(l, "/cond/")) {
			t.Errorf("-fix kept a write: %s", l)
		}
	}
	matchGoldens(t, mod, "defercond", "", "ctrld/ctrld.go", "cond/cond.go")
	vetFixed(t, mod)
}
