// Package migrateclosure: status writes in function literals that stay.
// Each reason names the function it means: the literal by its line, or
// the declaration whose parameter the literal writes.
package migrateclosure

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// OuterParam: the literal writes its declaration's parameter.
func (r *R) OuterParam(ctx context.Context, w *v1.Widget) error { // want OuterParam:"why"
	f := func() error {
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of OuterParam \(the write is in the function literal at line 17\): the patcher is made where its callers read it; move the write there\)$`
	}
	return f()
}

// OuterBase: the base is taken outside the literal that patches.
func (r *R) OuterBase(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	base := w.DeepCopy()
	return func() error {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: the base base is not w.DeepCopy\(\) taken in the function literal at line 28\)`
	}()
}

func (r *R) helper(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of helper: its caller at line 48: w is not read with Get in the function literal at line 48 before its call of helper: `
}

// CallerInLiteral: the helper's caller is a literal without a read.
func (r *R) CallerInLiteral(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	g := func() error { return r.helper(ctx, w) }
	return g()
}
