package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// capiHelper is a baseline for the benchmark, not a library: a status
// patch helper that behaves the way cluster-api's util/patch Helper does
// (as of its v1beta2 conditions), written for the Widget alone:
//
//   - NewHelper takes a snapshot of the object as the caller read it
//     (usually from the informer cache); Patch compares against it.
//   - Conditions go first, in a patch of their own under the optimistic
//     lock: the condition changes between the snapshot and the object
//     (added, changed, removed types) are applied to the latest object, read
//     through the client the helper was given (the cache, for a manager's
//     client), 3-way: a type the writer owns always takes the writer's
//     value; another type takes it only when the latest still equals the
//     snapshot (or already equals the new value), else the patch fails. A
//     409 re-reads and tries again: 5 attempts in all, 100 ms apart with up
//     to 100% jitter (k8s.io/apimachinery's wait.ExponentialBackoff with
//     factor 0), then the error goes back to the reconciler, which requeues.
//   - The rest of the status (conditions left out of both sides) is a JSON
//     merge patch from the snapshot without the optimistic lock: it cannot
//     conflict, and a list such as status.items is replaced by the writer's
//     copy, whatever happened in between.
type capiHelper struct {
	client client.Client
	before *v1.Widget
	owned  []string
}

// capiBackoff is the helper's conditions retry: 5 attempts, 100-200 ms apart.
var capiBackoff = wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Jitter: 1.0}

func newCAPIHelper(c client.Client, w *v1.Widget, ownedConditions ...string) *capiHelper {
	return &capiHelper{client: c, before: w.DeepCopy(), owned: ownedConditions}
}

// Patch writes the status changes from the snapshot to w.
func (h *capiHelper) Patch(ctx context.Context, w *v1.Widget) error {
	id := client.ObjectKeyFromObject(w)
	if err := h.patchConditions(ctx, w); err != nil {
		return fmt.Errorf("capi-style helper: Widget %s: patch conditions: %w", id, err)
	}
	if err := h.patchStatus(ctx, w); err != nil {
		return fmt.Errorf("capi-style helper: Widget %s: patch status: %w", id, err)
	}
	return nil
}

func (h *capiHelper) patchStatus(ctx context.Context, w *v1.Widget) error {
	before, after := h.before.DeepCopy(), w.DeepCopy()
	before.Status.Conditions, after.Status.Conditions = nil, nil
	data, err := client.MergeFrom(before).Data(after)
	if err != nil {
		return err
	}
	if bytes.Equal(data, []byte("{}")) {
		return nil
	}
	return h.client.Status().Patch(ctx, after, client.RawPatch(types.MergePatchType, data))
}

// conditionChange is one condition type's change from the snapshot: nil
// before for an added condition, nil after for a removed one.
type conditionChange struct {
	typ           string
	before, after *metav1.Condition
}

func conditionChanges(before, after []metav1.Condition) []conditionChange {
	var out []conditionChange
	for i := range after {
		a := &after[i]
		b := meta.FindStatusCondition(before, a.Type)
		if b == nil || !sameConditionState(*b, *a) {
			out = append(out, conditionChange{typ: a.Type, before: b, after: a})
		}
	}
	for i := range before {
		if meta.FindStatusCondition(after, before[i].Type) == nil {
			out = append(out, conditionChange{typ: before[i].Type, before: &before[i]})
		}
	}
	return out
}

// sameConditionState compares what a condition says, not when it last
// changed (cluster-api's rule).
func sameConditionState(a, b metav1.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message && a.ObservedGeneration == b.ObservedGeneration
}

// apply puts the changes on latest, 3-way, or fails on a condition another
// writer changed since the snapshot.
func (h *capiHelper) apply(latest *[]metav1.Condition, changes []conditionChange) error {
	for _, c := range changes {
		cur := meta.FindStatusCondition(*latest, c.typ)
		switch {
		case slices.Contains(h.owned, c.typ):
		case cur == nil && c.before == nil, cur != nil && c.after != nil && sameConditionState(*cur, *c.after):
		case cur != nil && c.before != nil && sameConditionState(*cur, *c.before):
		case cur == nil && c.after == nil:
		default:
			return fmt.Errorf("condition %q was changed by another writer since the snapshot", c.typ)
		}
		if c.after == nil {
			meta.RemoveStatusCondition(latest, c.typ)
		} else {
			meta.SetStatusCondition(latest, *c.after)
		}
	}
	return nil
}

func (h *capiHelper) patchConditions(ctx context.Context, w *v1.Widget) error {
	changes := conditionChanges(h.before.Status.Conditions, w.Status.Conditions)
	if len(changes) == 0 {
		return nil
	}
	key := client.ObjectKeyFromObject(w)
	return wait.ExponentialBackoff(capiBackoff, func() (bool, error) {
		latest := &v1.Widget{}
		if err := h.client.Get(ctx, key, latest); err != nil {
			return false, err
		}
		patch := client.MergeFromWithOptions(latest.DeepCopy(), client.MergeFromWithOptimisticLock{})
		if err := h.apply(&latest.Status.Conditions, changes); err != nil {
			return false, err
		}
		err := h.client.Status().Patch(ctx, latest, patch)
		switch {
		case apierrors.IsConflict(err):
			return false, nil
		case err != nil:
			return false, err
		}
		return true, nil
	})
}
