package main

import (
	"strings"
	"testing"
)

// statusOKPkg is statusChainUnsentTwoPkg: MarkOK changes only the status.
const statusOKPkg = statusChainUnsentTwoPkg

// callerOwnChainPkg hands the object to a chain of its own package whose
// link clears the replicas (a spec change, left unsent by the Update)
// and to MarkOK, of another package, in both orders.
const callerOwnChainPkg = `package ctrla

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
	if err := r.markFailed(ctx, d); err != nil {
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
	return r.markFailed(ctx, d)
}

func (r *Reconciler) markFailed(ctx context.Context, d *appsv1.Deployment) error {
	d.Spec.Replicas = nil
	return r.setFailed(ctx, d)
}

func (r *Reconciler) setFailed(ctx context.Context, d *appsv1.Deployment) error {
	d.Status.Replicas = 3
	return r.Client.Status().Update(ctx, d)
}
`

// A caller whose own chain's link changes the spec (its patcher made
// with patcher.WithNonStatusChangesUnsent()) and which hands the object
// to MarkOK, an exported helper of another package whose write is a
// status subresource write (HelperFact.Subresource), moves both onto one
// patcher with the option. At f77fb29 MarkOK stayed, saying "the patcher
// writes only the status": the callers' part never checked again with
// the changes the Update left unsent allowed.
func TestFixMovesExportedHelperBesideUnsentOwnChain(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, map[string]string{"status/status.go": statusOKPkg, "kindpatch/kindpatch.go": optsKindpatchPkg, "ctrla/ctrla.go": callerOwnChainPkg},
		"status/status.go:27: fixed: move the status write", "ctrla/ctrla.go:44: fixed: move the status write")
	if strings.Contains(errOut, "the patcher writes only the status") {
		t.Errorf("-fix: a reason says the patcher writes only the status:\n%s", errOut)
	}
	got := readIn(t, mod, "ctrla/ctrla.go")
	if n := strings.Count(got, "dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d, patcher.WithNonStatusChangesUnsent())"); n != 2 || strings.Contains(got, "NewDeploymentStatusPatcher(r.Client, d)") {
		t.Errorf("ctrla.go after -fix: want one patcher with patcher.WithNonStatusChangesUnsent() in each function, got %d:\n%s", n, got)
	}
	vetFixed(t, mod)
}
