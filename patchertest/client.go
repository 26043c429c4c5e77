package patchertest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Faults says which faults a Client injects.
type Faults struct {
	// Conflicts is the number of status writes (Patch, Update, Apply on the
	// status subresource) answered with a 409 Conflict, without reaching the
	// wrapped client, before writes go through.
	Conflicts int
	// StaleReads is the number of Gets, after the first Get of an object,
	// answered with the object as that first Get saw it, as a lagging
	// informer cache would. Gets of the status subresource are never
	// stale: no cache serves them.
	StaleReads int
}

// Client is a client.WithWatch that injects Faults and counts writes.
type Client struct {
	client.WithWatch

	mu           sync.Mutex
	faults       Faults
	snapshots    map[client.ObjectKey]client.Object
	statusWrites int
	conflicts    int
	staleReads   int
}

// NewClient wraps c, injecting faults.
func NewClient(c client.Client, faults Faults) *Client {
	fc := &Client{faults: faults, snapshots: map[client.ObjectKey]client.Object{}}
	fc.WithWatch = interceptor.NewClient(withWatch(c), interceptor.Funcs{
		Get: fc.get,
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := fc.statusWrite(sub, obj); err != nil {
				return err
			}
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
		SubResourceGet: subResourceGet,
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if err := fc.statusWrite(sub, obj); err != nil {
				return err
			}
			return c.SubResource(sub).Update(ctx, obj, opts...)
		},
	})
	return fc
}

// StatusWrites returns the number of status writes the caller attempted,
// injected conflicts included.
func (c *Client) StatusWrites() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statusWrites
}

// InjectedConflicts returns the number of conflicts injected so far.
func (c *Client) InjectedConflicts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conflicts
}

// StaleReadsServed returns the number of stale reads served so far.
func (c *Client) StaleReadsServed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.staleReads
}

func (c *Client) statusWrite(sub string, obj client.Object) error {
	if sub != "status" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.statusWrites++
	if c.conflicts < c.faults.Conflicts {
		c.conflicts++
		return apierrors.NewConflict(schema.GroupResource{Resource: fmt.Sprintf("%T", obj)}, obj.GetName(),
			fmt.Errorf("patchertest: injected conflict %d of %d", c.conflicts, c.faults.Conflicts))
	}
	return nil
}

func (c *Client) get(ctx context.Context, wrapped client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.mu.Lock()
	snap, seen := c.snapshots[key]
	stale := seen && c.staleReads < c.faults.StaleReads
	if stale {
		c.staleReads++
	}
	c.mu.Unlock()
	if stale {
		return copyInto(snap, obj)
	}
	if err := wrapped.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	if !seen && c.faults.StaleReads > 0 {
		c.mu.Lock()
		c.snapshots[key] = obj.DeepCopyObject().(client.Object)
		c.mu.Unlock()
	}
	return nil
}

// subResourceGet reads a subresource through the wrapped client. The
// status subresource, which controller-runtime's fake client does not
// serve, is the object itself, read past the stale reads: no cache
// serves it.
func subResourceGet(ctx context.Context, wrapped client.Client, sub string, obj, subResource client.Object, opts ...client.SubResourceGetOption) error {
	err := wrapped.SubResource(sub).Get(ctx, obj, subResource, opts...)
	var status apierrors.APIStatus
	if err == nil || sub != "status" || errors.As(err, &status) {
		return err
	}
	return wrapped.Get(ctx, client.ObjectKeyFromObject(obj), subResource)
}
