package migratealiases

import (
	"context"
	"errors"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
)

// A server-side apply of the object's own kind while a patch helper holds
// its base: it moves the resourceVersion, and the helper gets no lock
// (a lock conflicted on every reconcile).
type applyHelper struct {
	c    client.Client
	base client.Object
}

func newApplyHelper(obj client.Object, c client.Client) *applyHelper { // want newApplyHelper:"statusOnly\\[0\\]"
	return &applyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *applyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `and its caller's r\.Apply at line 38 writes while h, made at line 35, holds its base for h\.Patch at line 36 \(write both through one patcher by hand\)\) \(no fix: `
}

func (r *Reconciler) appliedBeside(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newApplyHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	w.Status.Ready = true
	return r.Apply(ctx, widgetac.Widget(w.Name, w.Namespace), client.FieldOwner("widget-controller"))
}
