// Package migratecapi: cluster-api's patch helper. Reconcile makes a
// helper that copies the object it has just read, and patches the status
// in a defer with a named error return; the helper's Patch takes a
// client.Object. The write stays, naming the helper's parameter, the call
// that passes the object and where its patcher goes.
package migratecapi

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	helper := newPatchHelper(w, r.Client)
	defer func() {
		if err := helper.Patch(ctx, w); err != nil {
			reterr = errors.Join(reterr, err)
		}
	}()
	w.Status.Ready = true
	return nil
}

// patchHelper patches an object's status against the copy taken when it
// was made.
type patchHelper struct {
	c    client.Client
	base client.Object
}

func newPatchHelper(obj client.Object, c client.Client) *patchHelper { // want newPatchHelper:"statusOnly\\[0\\]"
	return &patchHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *patchHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: obj is a client\.Object parameter of patchHelper\.Patch, and its caller at line 27 passes w, a \*Widget: -fix moves the write of a \*Widget variable, not of an interface parameter; make NewWidgetStatusPatcher where the caller reads w and call its Flush\(ctx\) in place of that call\)$`
}
