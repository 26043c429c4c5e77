// Package controllers is checked against the real controller-runtime, to
// prove the analyzer's stubs match the real API.
package controllers

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
)

type DeploymentReconciler struct {
	crclient.Client
}

func (r *DeploymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var d appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil {
		return ctrl.Result{}, crclient.IgnoreNotFound(err)
	}
	base := d.DeepCopy()
	d.Status.ObservedGeneration = d.Generation
	if err := r.Status().Patch(ctx, &d, crclient.MergeFrom(base)); err != nil { // want `^blind: Status\(\)\.Patch of Deployment: client.MergeFrom without optimistic lock$`
		return ctrl.Result{}, err
	}
	_ = r.SubResource("status").Update(ctx, &d)              // optimistic, of a kind without a patcher: -audit's only
	_ = r.Status().Apply(ctx, appsv1ac.Deployment("a", "b")) // want `^blind: Status\(\)\.Apply of Deployment`
	var sw crclient.StatusWriter = r.Status()
	_ = sw.Update(ctx, &d) // optimistic: -audit's only
	f := r.Status().Patch
	_ = f(ctx, &d, crclient.MergeFrom(base)) // want `^blind: .* of Deployment`

	// Not status writes.
	_ = r.Patch(ctx, &d, crclient.MergeFrom(base))
	_ = r.SubResource("scale").Update(ctx, &d)
	_ = r.SubResource("eviction").Create(ctx, &corev1.Pod{}, &corev1.Pod{})
	return ctrl.Result{}, nil
}

// An interface-typed object: no <Kind>StatusPatcher is suggested.
func WriteObject(ctx context.Context, c crclient.Client, obj crclient.Object, base crclient.Object) error { // want WriteObject:"why"
	return c.Status().Patch(ctx, obj, crclient.MergeFrom(base)) // want `^handwritten status write to client.Object \(an interface\): use the generated status patcher of the object's concrete type$`
}
