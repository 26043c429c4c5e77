// Package migratevalue: kubebuilder's tutorial form, the object a local
// value read and written by its address (var w v1.Widget, r.Get(ctx, key,
// &w), r.Status().Update(ctx, &w)). -fix makes the patcher over &w, which
// holds w itself: the writes move (issue 80 B1; until then they stayed,
// asking to declare w a pointer). A package variable's address stays.
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
		_ = r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}()
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A package variable is not a local value: its address is named as it was.
var shared v1.Widget

func (r *R) Shared(ctx context.Context) error {
	shared.Status.Ready = true
	return r.Status().Update(ctx, &shared) // want `\(not moved to the patcher: the object &shared is the address of the package variable shared: -fix moves the writes of a local value only\)$`
}

// A helper given a package variable's address: named as a package
// variable, not as a local value to declare a pointer for.
func (r *R) SharedByHelper(ctx context.Context) error {
	shared.Status.Ready = true
	return r.writeShared(ctx, &shared)
}

func (r *R) writeShared(ctx context.Context, w *v1.Widget) error {
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of writeShared: its call at line 45 passes &shared, the address of the package variable shared: -fix moves the writes of a local value only\)$`
}
