// Package migratecapidefer: a status write deferred before a
// cluster-api-style patch helper of its object is made (s95 F2).
package migratecapidefer

import (
	"context"
	"errors"

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
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its caller writes w's status itself at line 39 while the helper made from it at line 41 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

// deferredFirst defers its own status write, then makes the helper and
// patches: the deferred write runs after the helper's patch.
func (r *Reconciler) deferredFirst(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 5
		reterr = errors.Join(reterr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: a patch helper is made from w at line 41, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
	}()
	h := newLaterHelper(w, r.Client)
	w.Status.Ready = true
	return h.Patch(ctx, w)
}
