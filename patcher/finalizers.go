package patcher

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AddFinalizer adds finalizer to the object on the server with the same
// optimistic lock as Flush, and moves the base forward, so a later Flush does
// not conflict with this write. Status changes made in memory are kept. It
// returns false, and sends nothing, when the finalizer is already there.
func (p *Patcher[T]) AddFinalizer(ctx context.Context, finalizer string) (bool, error) {
	if err := p.Err(); err != nil {
		return false, err
	}
	if slices.Contains(p.obj.GetFinalizers(), finalizer) {
		return false, nil
	}
	return true, p.writeFinalizers(ctx, append(slices.Clone(p.base.GetFinalizers()), finalizer))
}

// RemoveFinalizer removes finalizer from the object on the server, like
// AddFinalizer. When it removes the last finalizer of an object that is being
// deleted the server deletes the object, and a later Flush returns NotFound
// without a request.
func (p *Patcher[T]) RemoveFinalizer(ctx context.Context, finalizer string) (bool, error) {
	if err := p.Err(); err != nil {
		return false, err
	}
	if !slices.Contains(p.obj.GetFinalizers(), finalizer) {
		return false, nil
	}
	err := p.writeFinalizers(ctx, slices.DeleteFunc(slices.Clone(p.base.GetFinalizers()), func(f string) bool { return f == finalizer }))
	if err == nil && p.obj.GetDeletionTimestamp() != nil && len(p.obj.GetFinalizers()) == 0 {
		p.gone = true
	}
	return true, err
}

// writeFinalizers patches the main resource's finalizer list under the lock.
// The response is read into a scratch object, so the caller's in-memory
// status survives; the object takes the response's metadata and the response
// becomes the base.
func (p *Patcher[T]) writeFinalizers(ctx context.Context, finalizers []string) error {
	if p.gone {
		return p.notFound("the last finalizer was removed from the deleting object")
	}
	if err := p.syncBase(ctx); err != nil {
		return err
	}
	body, err := finalizerBody(p.base.GetResourceVersion(), finalizers)
	if err != nil {
		return fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	scratch := reflect.New(reflect.TypeOf(p.obj).Elem()).Interface().(T)
	scratch.SetName(p.obj.GetName())
	scratch.SetNamespace(p.obj.GetNamespace())
	var opts []client.PatchOption
	if p.opts.FieldOwner != "" {
		opts = append(opts, client.FieldOwner(p.opts.FieldOwner))
	}
	if err := p.client.Patch(ctx, scratch, client.RawPatch(types.MergePatchType, body), opts...); err != nil {
		if apierrors.IsConflict(err) {
			p.metrics.observeFlush(p.kind, resultConflict, 0)
		}
		return fmt.Errorf("statuspatch: patch finalizers of %s: %w", p.id(), err)
	}
	if err := copyObjectMeta(p.obj, scratch); err != nil {
		return fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	p.base = scratch
	p.baseStatusJSON = nil
	return nil
}

// copyObjectMeta sets dst's embedded ObjectMeta to a copy of src's.
func copyObjectMeta(dst, src client.Object) error {
	d := reflect.ValueOf(dst).Elem()
	s := reflect.ValueOf(src).Elem()
	for i := 0; i < d.NumField(); i++ {
		if d.Type().Field(i).Type == objectMetaType {
			m := s.Field(i).Addr().Interface().(*metav1.ObjectMeta)
			d.Field(i).Set(reflect.ValueOf(*m.DeepCopy()))
			return nil
		}
	}
	return fmt.Errorf("%T has no embedded metav1.ObjectMeta", dst)
}
