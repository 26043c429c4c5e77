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
