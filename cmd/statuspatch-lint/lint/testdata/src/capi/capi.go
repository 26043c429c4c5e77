// Package capi reproduces the status writes found in cluster-api v1.8.4
// (util/patch, internal/controllers/machineset) when trying the linter on
// real operators: all were classified correctly; kept as regressions.
package capi

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Helper struct {
	client client.Client
}

func (h *Helper) calculatePatch(obj client.Object) (client.Object, client.Object, error) {
	return obj, obj, nil
}

// util/patch.(*Helper).patchStatus: an interface-typed object, blind.
func (h *Helper) patchStatus(ctx context.Context, obj client.Object) error {
	before, after, err := h.calculatePatch(obj)
	if err != nil {
		return err
	}
	return h.client.Status().Patch(ctx, after, client.MergeFrom(before)) // want `^blind: Status\(\).Patch of client.Object: client.MergeFrom without optimistic lock$`
}

func exponentialBackoff(cond func() (bool, error)) error { _, err := cond(); return err }

// util/patch.(*Helper).patchStatusConditions: optimistic patch built and
// used inside a retry closure.
func (h *Helper) patchStatusConditions(ctx context.Context, before client.Object, key client.ObjectKey) error { // want patchStatusConditions:`^statusOnly\[1\]$`
	return exponentialBackoff(func() (bool, error) {
		latest := before.DeepCopyObject().(client.Object)
		if err := h.client.Get(ctx, key, latest); err != nil {
			return false, err
		}
		conditionsPatch := client.MergeFromWithOptions(latest.DeepCopyObject().(client.Object), client.MergeFromWithOptimisticLock{})
		err := h.client.Status().Patch(ctx, latest, conditionsPatch) // want `^optimistic: Status\(\).Patch of client.Object: MergeFromWithOptimisticLock$`
		return err == nil, err
	})
}

// machineset: a patch taken before a Delete, used after, in a loop. A
// Delete of an object with finalizers sets its deletionTimestamp and
// moves the resourceVersion: locked, the patch would conflict (no fix).
func remediate(ctx context.Context, c client.Client, machines []*v1.Widget) {
	for _, m := range machines {
		patch := client.MergeFrom(m.DeepCopyObject().(*v1.Widget))
		if err := c.Delete(ctx, m); err != nil {
			continue
		}
		m.Status.Ready = false
		_ = c.Status().Patch(ctx, m, patch) // want `^blind: Status\(\).Patch of Widget: client.MergeFrom without optimistic lock \(no fix: the base .* is taken at line \d+, before the call at line \d+, which is given the object: Delete is a method of a client, and may update it, moving the resourceVersion a lock would send`
	}
}
