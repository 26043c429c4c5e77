package advbase

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// The base a DeepCopy dereferenced into a value of its own.
func (r *R) derefCopy(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	base := *w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, &w, client.MergeFrom(&base)) // want `not moved to the patcher: the base &base is the address of the value base, and -fix follows a base held as a pointer: take base := w\.DeepCopy\(\) and MergeFrom\(base\) for it to move the write\)$`
}

// The base a copy of the value, then the value re-read: the base is
// the first read.
func (r *R) copyThenReGet(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	base := w.DeepCopy()
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, &w, client.MergeFrom(base)) // want `not moved to the patcher: w is read again with Get at line 33, after the base its write at line 37 is made from: the patcher's base would be the object before that read\)$`
}

// The base declared without a value and set inside an if (karpenter's
// termination controller): stays, naming the declaration and the
// assignment, where it said the base was not w.DeepCopy() taken here.
func (r *R) baseSetInIf(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var base *v1.Widget
	if w.Name != "" {
		base = w.DeepCopy()
	}
	w.Status.Ready = true
	if base == nil {
		return nil
	}
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `not moved to the patcher: the base base is declared at line 48 without a value and set to w\.DeepCopy\(\) at line 50, inside the if at line 49: -fix moves a base defined with its value \(base := w\.DeepCopy\(\)\)\)$`
}
