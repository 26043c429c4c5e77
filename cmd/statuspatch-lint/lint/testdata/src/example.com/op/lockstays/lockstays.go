// Package lockstays: a write -fix counts fixed is no finding after. The
// lock makes a blind patch optimistic; a write of a kind of this module
// or of unknown kind is still handwritten after it (the default mode
// reports it), so the lock is printed as locked and kept, not fixed. A
// kind of another module without a patcher is reported only while blind:
// its lock fixes it.
package lockstays

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A generic helper: the object's kind is not known, no patcher to move it
// onto; the lock leaves a handwritten write (-ci, which reports only
// the blind and unresolved writes, reports it no more).
func patchStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^(handwritten status write to|blind: Status\(\)\.Patch of) an object of unknown kind`
}

// A Deployment: reported only while blind.
func patchDeployment(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	base := d.DeepCopy()
	d.Status.Replicas = 1
	return c.Status().Patch(ctx, d, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Deployment: client.MergeFrom without optimistic lock$`
}
