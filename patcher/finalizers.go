package patcher

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// AddFinalizer makes sure finalizer is on the object on the server. It
// decides from the server's state (the base, re-read first if the caller
// wrote the object itself), whatever the in-memory list says: when the
// server lacks it, it writes the server's list plus finalizer with the same
// optimistic lock as Flush and moves the base forward, so a later Flush does
// not conflict with this write. It reports whether it wrote. The in-memory
// object gets the finalizer and the response's resourceVersion; its status
// and every other in-memory change (labels, annotations, other finalizers)
// are kept as they were.
func (p *Patcher[T]) AddFinalizer(ctx context.Context, finalizer string) (bool, error) {
	return p.setFinalizer(ctx, finalizer, true)
}

// RemoveFinalizer makes sure finalizer is not on the object on the server,
// like AddFinalizer: it writes only when the server has it. When it removes
// the last finalizer of an object that is being deleted the server deletes
// the object, and a later Flush returns NotFound without a request.
func (p *Patcher[T]) RemoveFinalizer(ctx context.Context, finalizer string) (bool, error) {
	return p.setFinalizer(ctx, finalizer, false)
}

func (p *Patcher[T]) setFinalizer(ctx context.Context, finalizer string, present bool) (bool, error) {
	if err := p.Err(); err != nil {
		return false, err
	}
	if finalizer == "" {
		return false, fmt.Errorf("statuspatch: %s: empty finalizer name: %w", p.id(), ErrInvalidInput)
	}
	if p.gone {
		return false, p.notFound("the last finalizer was removed from the deleting object")
	}
	if err := ctxError(ctx); err != nil {
		return false, fmt.Errorf("statuspatch: %s: finalizer %s: %w", p.id(), finalizer, err)
	}
	if err := p.syncBase(ctx, false); err != nil {
		return false, err
	}
	if err := p.tracker.staleError(); err != nil {
		return false, err
	}
	onServer := p.base.GetFinalizers()
	if slices.Contains(onServer, finalizer) == present {
		p.obj.SetFinalizers(withFinalizer(p.obj.GetFinalizers(), finalizer, present))
		return false, nil
	}
	if err := p.writeFinalizers(ctx, withFinalizer(onServer, finalizer, present)); err != nil {
		return false, err
	}
	p.obj.SetFinalizers(withFinalizer(p.obj.GetFinalizers(), finalizer, present))
	if p.base.GetDeletionTimestamp() != nil && len(p.base.GetFinalizers()) == 0 {
		p.gone = true
	}
	return true, nil
}

// withFinalizer returns a copy of list with finalizer added at the end or
// removed; the list is returned unchanged when it already agrees.
func withFinalizer(list []string, finalizer string, present bool) []string {
	if slices.Contains(list, finalizer) == present {
		return list
	}
	if present {
		return append(slices.Clone(list), finalizer)
	}
	return slices.DeleteFunc(slices.Clone(list), func(f string) bool { return f == finalizer })
}

// writeFinalizers patches the main resource's finalizer list under the lock.
// The response is read into a scratch object and becomes the base; the
// caller's object takes only the server-owned metadata of the response
// (resourceVersion, generation, managedFields, deletion), so its in-memory
// status and other metadata survive.
func (p *Patcher[T]) writeFinalizers(ctx context.Context, finalizers []string) error {
	body, err := diff.FinalizerBody(p.base.GetResourceVersion(), finalizers)
	if err != nil {
		return fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	release, err := p.tracker.claimWrite(ctx, "finalizers")
	if err != nil {
		if apierrors.IsConflict(err) {
			p.metrics.observeFlush(p.kind, resultConflict, 0)
		}
		return err
	}
	defer release()
	scratch := p.newObject()
	var opts []client.PatchOption
	if p.opts.fieldOwner != "" {
		opts = append(opts, client.FieldOwner(p.opts.fieldOwner))
	}
	if err := p.client.Patch(ctx, scratch, client.RawPatch(types.MergePatchType, body), opts...); err != nil {
		if apierrors.IsConflict(err) {
			p.metrics.observeFlush(p.kind, resultConflict, 0)
		}
		return fmt.Errorf("statuspatch: patch finalizers of %s: %w", p.id(), withCause(ctx, err))
	}
	p.obj.SetResourceVersion(scratch.GetResourceVersion())
	p.obj.SetGeneration(scratch.GetGeneration())
	p.obj.SetManagedFields(scratch.GetManagedFields())
	p.obj.SetDeletionTimestamp(scratch.GetDeletionTimestamp())
	p.obj.SetDeletionGracePeriodSeconds(scratch.GetDeletionGracePeriodSeconds())
	p.base = scratch
	p.baseStatusJSON = nil
	p.tracker.wrote(scratch)
	return nil
}
