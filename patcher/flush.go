package patcher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Flush writes the status difference since the base as one JSON merge patch
// to the status subresource, carrying the base's resourceVersion. It sends
// nothing when the status did not change. On success the object holds the
// server's response and becomes the new base. On a Conflict
// (apierrors.IsConflict) the object, including its status, is left as it
// was. When it would write and the caller also changed something outside
// status in memory, it returns ErrNonStatusChange and sends nothing.
func (p *Patcher[T]) Flush(ctx context.Context) error {
	if err := p.Err(); err != nil {
		return err
	}
	start := time.Now()
	result, err := p.flush(ctx)
	p.metrics.observeFlush(p.kind, result, time.Since(start))
	return err
}

func (p *Patcher[T]) flush(ctx context.Context) (flushResult, error) {
	if p.gone {
		return resultError, p.notFound("the last finalizer was removed from the deleting object")
	}
	if err := p.syncBase(ctx); err != nil {
		return resultOf(err), err
	}
	changed, cur, err := p.statusChange()
	if err != nil || !changed {
		if err != nil {
			return resultError, err
		}
		return resultNoop, nil
	}
	// Only a write can drop changes, so only a write pays for the check.
	if fields := p.nonStatusChanges(); len(fields) > 0 {
		return resultError, &NonStatusChangeError{Object: p.id(), Fields: fields}
	}
	base, err := p.baseStatus()
	if err != nil {
		return resultError, err
	}
	diff, err := statusMergePatch(base, cur)
	if err != nil {
		return resultError, fmt.Errorf("statuspatch: %s: diff status: %w", p.id(), err)
	}
	body, err := patchBody(p.base.GetResourceVersion(), diff)
	if err != nil {
		return resultError, fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	if err := p.client.Status().Patch(ctx, p.obj, client.RawPatch(types.MergePatchType, body), p.subResourcePatchOptions()...); err != nil {
		if apierrors.IsConflict(err) {
			log.FromContext(ctx).V(1).Info("status write conflicted; the object changed since it was read",
				"kind", p.kind, "object", client.ObjectKeyFromObject(p.obj), "resourceVersion", p.base.GetResourceVersion())
		}
		return resultOf(err), fmt.Errorf("statuspatch: patch status of %s: %w", p.id(), err)
	}
	p.setBase(p.obj)
	return resultApplied, nil
}

// syncBase handles a write the caller made on the same object behind the
// patcher's back (r.Update or r.Patch adding a finalizer, say): the object's
// resourceVersion no longer matches the base. The object is re-read; when the
// server's status still equals the base's, nobody else wrote status, and the
// re-read object becomes the base, so the status difference is unchanged and
// the lock is taken at the current resourceVersion. Otherwise it is a real
// conflict.
func (p *Patcher[T]) syncBase(ctx context.Context) error {
	if p.obj.GetResourceVersion() == p.base.GetResourceVersion() {
		return nil
	}
	fresh, err := p.read(ctx)
	if err != nil {
		return err
	}
	base, err := p.baseStatus()
	if err != nil {
		return err
	}
	freshStatus, err := json.Marshal(p.status(fresh))
	if err != nil {
		return fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	if !bytes.Equal(base, freshStatus) {
		return apierrors.NewConflict(p.groupResource(), p.obj.GetName(),
			fmt.Errorf("statuspatch: the object was written since the patcher's base (resourceVersion %s) and its status changed; use Retry or re-fetch",
				p.base.GetResourceVersion()))
	}
	p.base = fresh
	p.baseStatusJSON = freshStatus
	// The caller's own write updated the object's metadata; keep its
	// resourceVersion in step with the base for the next comparison.
	p.obj.SetResourceVersion(fresh.GetResourceVersion())
	return nil
}

// read fetches the object through the API reader into a new T.
func (p *Patcher[T]) read(ctx context.Context) (T, error) {
	fresh := reflect.New(reflect.TypeOf(p.obj).Elem()).Interface().(T)
	reader := p.opts.APIReader
	if reader == nil {
		reader = p.client
	}
	if err := reader.Get(ctx, client.ObjectKeyFromObject(p.obj), fresh); err != nil {
		return fresh, fmt.Errorf("statuspatch: re-read %s: %w", p.id(), err)
	}
	return fresh, nil
}

func (p *Patcher[T]) subResourcePatchOptions() []client.SubResourcePatchOption {
	if p.opts.FieldOwner == "" {
		return nil
	}
	return []client.SubResourcePatchOption{client.FieldOwner(p.opts.FieldOwner)}
}

func (p *Patcher[T]) groupResource() schema.GroupResource {
	if gvk, err := p.client.GroupVersionKindFor(p.obj); err == nil {
		return schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}
	}
	return schema.GroupResource{Resource: p.kind}
}

func (p *Patcher[T]) notFound(why string) error {
	return fmt.Errorf("statuspatch: %s: %s: %w", p.id(), why,
		apierrors.NewNotFound(p.groupResource(), p.obj.GetName()))
}
