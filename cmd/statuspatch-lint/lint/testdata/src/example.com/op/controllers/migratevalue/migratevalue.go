// Package migratevalue: kubebuilder's tutorial form, the object a local
// value read and written by its address (var w v1.Widget, r.Get(ctx, key,
// &w), r.Status().Update(ctx, &w)). -fix makes a patcher of a pointer
// variable: the writes stay, and say so, with the declaration to change
// (the reason named &w "not a variable").
package migratevalue

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

func (r *R) Reconcile(ctx context.Context, key client.ObjectKey) (retErr error) {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		w.Status.Ready = false
		_ = r.Status().Update(ctx, &w) // want `\(not moved to the patcher: the object is &w, the address of a local value declared at line 18: the patcher is made of a pointer variable; declare w := &v1\.Widget\{\}, read into it and pass it \(FetchWidgetStatusPatcher there makes its patcher\)\)$`
	}()
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `\(not moved to the patcher: the object is &w, the address of a local value declared at line 18: `
}

// A package variable is not a local value: its address is named as it was.
var shared v1.Widget

func (r *R) Shared(ctx context.Context) error {
	shared.Status.Ready = true
	return r.Status().Update(ctx, &shared) // want `\(not moved to the patcher: the object &shared is not a variable\)$`
}
