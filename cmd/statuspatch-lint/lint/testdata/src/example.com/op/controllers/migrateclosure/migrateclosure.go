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

// NestedGet: the Get is an argument of another call, as gomega's
// g.Expect(k8sClient.Get(ctx, key, &w)).To(Succeed()) in kueue's
// test/util: its error goes to that call, and the reason says so, where
// it said "w is not read with Get" (s103, helper O).
func (r *R) NestedGet(ctx context.Context, key client.ObjectKey, expect func(error) bool) error {
	w := &v1.Widget{}
	if !expect(r.Get(ctx, key, w)) {
		return nil
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is read with Get at line 58 as an argument of expect, not in a statement of its own: -fix makes the patcher after a Get whose error it sees checked \(err := c.Get\(...\), if err := c.Get\(...\); err != nil, or an assertion that ends the function when it fails: Expect\(c.Get\(...\)\).To\(Succeed\(\)\), require.NoError\(t, c.Get\(...\)\)\); read it so, or make NewWidgetStatusPatcher after that statement and call its Flush\(ctx\) here\)`
}

// NestedGetValue: the same of a value read by its address, in a literal.
func (r *R) NestedGetValue(ctx context.Context, key client.ObjectKey, expect func(error)) func() error {
	return func() error {
		var w v1.Widget
		expect(r.Get(ctx, key, &w))
		w.Status.Ready = true
		return r.Status().Update(ctx, &w) // want `\(not moved to the patcher: w is read with Get at line 69 as an argument of expect, not in a statement of its own: `
	}
}
