// Package advapplymerge: a blind merge patch after a server-side apply of
// the same object, its base taken after the apply. The apply stays
// (migratelife's applyBefore); at 535c6a4 the merge patch moves onto a
// patcher made at the read, before the apply. The apply moves the
// resourceVersion whenever it changes anything, and w, another object
// than the one applied, still holds the read's: the Flush sends that
// resourceVersion and conflicts every time, where the blind patch was
// stored. A lock at the handwritten base would conflict the same way, so
// the write should stay, blind and reported, naming the apply (no fix),
// as staleLockBase does for a Patch or Update of the object itself.
package advapplymerge

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) applyThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `not moved to the patcher`
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: .*apply`
}
