// Package readhelper: cluster-api's util/patch, reduced. NewHelper is
// given the object and a client, keeps a copy of the object and writes
// only in its own Patch, later; Touch updates what it is given.
package readhelper

import (
	"context"
	"errors"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Helper patches an object from the copy taken when it was made.
type Helper struct {
	c      client.Client
	before client.Object
}

// NewHelper reads obj: its name and a copy.
func NewHelper(obj client.Object, c client.Client) (*Helper, error) { // want NewHelper:`^readsOnly\[0\]$`
	if obj == nil || obj.GetName() == "" {
		return nil, errors.New("an object without a name")
	}
	return &Helper{c: c, before: obj.DeepCopyObject().(client.Object)}, nil
}

// Patch writes obj.
func (h *Helper) Patch(ctx context.Context, obj client.Object) error {
	return h.c.Patch(ctx, obj, client.MergeFrom(h.before))
}

// Touch adds a finalizer to obj and updates it.
func Touch(ctx context.Context, c client.Client, obj client.Object) error {
	obj.SetFinalizers(append(obj.GetFinalizers(), "touched"))
	return c.Update(ctx, obj)
}

// Keeper keeps the object it is made with and writes it in Flush.
type Keeper struct {
	c   client.Client
	obj client.Object
}

// NewKeeper keeps obj, through a function of its package: no call given
// obj writes it, but the Keeper it returns may, later.
func NewKeeper(obj client.Object, c client.Client) *Keeper {
	return keep(obj, c)
}

func keep(obj client.Object, c client.Client) *Keeper {
	return &Keeper{c: c, obj: obj}
}

// Flush updates the object kept.
func (k *Keeper) Flush(ctx context.Context) error {
	return k.c.Update(ctx, k.obj)
}
