// Package migratecapiloop: a status write before a cluster-api-style patch
// helper of its object made later in a loop around both (s95 R3).
package migratecapiloop

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

type laterHelper struct {
	c    client.Client
	base client.Object
}

func newLaterHelper(obj client.Object, c client.Client) *laterHelper { // want newLaterHelper:"statusOnly\\[0\\]"
	return &laterHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *laterHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// loopFirst writes, then makes the helper and patches, twice: the second
// write follows the helper's patch.
func (r *Reconciler) loopFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for i := range 2 {
		w.Status.Size = i
		if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: a patch helper is made from w at line 41, before this write in its function: the write.s own patcher would be a second patcher of w, its Flush conflicting with the helper.s patch \(write both through one patcher by hand\)\)$`
			return err
		}
		h := newLaterHelper(w, r.Client)
		w.Status.Ready = true
		if err := h.Patch(ctx, w); err != nil {
			return err
		}
	}
	return nil
}
