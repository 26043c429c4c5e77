// Package migratereview: adversarial shapes of issue 72's -fix rules (a
// lock base reused, a base copied, a copy patched against its source):
// what must stay stays, with why; what moves, moves whole.
package migratereview

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	last *v1.Widget
}

// The spec changed between two patches of one reused base: Flush would
// refuse it, so both stay.
func (r *Reconciler) reuseSpecBetween(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, base); err != nil { // want `not moved to the patcher: the status write of w at line 33 cannot be moved \(w.Spec is changed at line 31`
		return err
	}
	w.Spec.Size = 9
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, base) // want `not moved to the patcher: w.Spec is changed at line 31`
}

// The spec changed after the copy the patch is built from: stays.
func (r *Reconciler) copiedBaseSpecAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	orig := w.DeepCopy()
	w.Spec.Size = 2
	patch := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	w.Status.Size = 2
	return r.Status().Patch(ctx, w, patch) // want `not moved to the patcher: w.Spec is changed at line 43`
}

// The copy's spec changed before the patch against its source: stays.
func (r *Reconciler) copyMutatedSpec(ctx context.Context, scalers map[string]*v1.Widget) error {
	for _, s := range scalers {
		desired := s.DeepCopy()
		desired.Spec.Size = 3
		desired.Status.Size = 3
		if err := r.Status().Patch(ctx, desired, client.MergeFrom(s)); err != nil { // want `not moved to the patcher: desired.Spec is changed at line 53`
			return err
		}
	}
	return nil
}

// The copy's labels changed through a reference before the patch: stays.
func (r *Reconciler) copyMutatedLabels(ctx context.Context, scalers map[string]*v1.Widget) error {
	for _, s := range scalers {
		desired := s.DeepCopy()
		desired.Labels["x"] = "y"
		desired.Status.Size = 4
		if err := r.Status().Patch(ctx, desired, client.MergeFrom(s)); err != nil { // want `not moved to the patcher: desired.Labels is changed at line 66`
			return err
		}
	}
	return nil
}

// The object kept in a field of the reconciler before the write: stays.
func (r *Reconciler) storedInField(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	r.last = w
	w.Status.Size = 5
	return r.Status().Patch(ctx, w, base) // want `not moved to the patcher: w is passed on or aliased at line 82`
}

// An encoding of the spec kept in the object's annotations: stays.
func (r *Reconciler) encodedIntoMeta(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	b, err := json.Marshal(w.Spec.Template)
	if err != nil {
		return err
	}
	w.Labels = map[string]string{"template": string(b)}
	w.Status.Size = 6
	return r.Status().Patch(ctx, w, base) // want `not moved to the patcher: w.Labels is changed at line 98`
}

// An encoding decoded back into the spec: stays.
func (r *Reconciler) encodedIntoSpec(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	b, err := json.Marshal(w.Spec.Template)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &w.Spec); err != nil {
		return err
	}
	w.Status.Size = 7
	return r.Status().Patch(ctx, w, base) // want `not moved to the patcher: the address of w.Spec is taken at line 114`
}
