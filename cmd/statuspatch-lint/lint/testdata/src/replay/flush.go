package replay

import (
	"context"

	v1 "example.com/api/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A replay through a generated patcher's Flush, as docs/lint.md's table
// says: a status decided before the patcher's fresh read (the re-read its
// patcher is made after, or its Fetch) and assigned after it.

// replayWhole moved onto the patcher made after the re-read, as -fix
// moved it before issue 80: the write is the same replay.
func (r *Reconciler) flushAfterReRead(ctx context.Context, desired *v1.Widget) error { // want flushAfterReRead:`^statusOnly\[1\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		latestPatcher := v1.NewWidgetStatusPatcher(r, latest)
		latest.Status = desired.Status
		return latestPatcher.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: status replayed from before the re-read \(assigned from captured desired\) through Flush: decide it in Retry's mutate, from the object it re-reads$`
	})
}

// kubebuilder's re-fetch made a Fetch of the patcher: the decision is
// taken from the object read before it.
func (r *Reconciler) flushAfterFetch(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	gen := w.Generation
	p, err := v1.FetchWidgetStatusPatcher(ctx, r.Client, key)
	if err != nil {
		return err
	}
	w = p.Object()
	w.Status.ObservedGeneration = gen
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: status replayed from before the re-read \(computed from the Widget read at line 33, read before the re-read\) through Flush: decide it in Retry's mutate, from the object it re-reads$`
}

// The tutorial's value read again into itself, as -fix moves it since
// issue 80 (Fetch<Kind>StatusPatcherInto): the value read into is the
// fresh object, and a status copied from one read before is replayed; the
// twin deciding from the value after the re-read is not.
func (r *Reconciler) flushAfterFetchInto(ctx context.Context, old *v1.Widget) error { // want flushAfterFetchInto:`^statusOnly\[1\]$`
	var w v1.Widget
	p, err := v1.FetchWidgetStatusPatcherInto(ctx, r.Client, client.ObjectKeyFromObject(old), &w)
	if err != nil {
		return err
	}
	w.Status.Ready = old.Status.Ready
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: status replayed from before the re-read \(computed from old, read before the re-read\) through Flush: decide it in Retry's mutate, from the object it re-reads$`
}

func (r *Reconciler) flushAfterFetchIntoRecomputed(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	p, err := v1.FetchWidgetStatusPatcherInto(ctx, r.Client, key, &w)
	if err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.Generation
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher`
}

// A helper given the object: it fetches a fresh one and copies the given
// one's status onto it.
func (r *Reconciler) flushFromParam(ctx context.Context, old *v1.Widget) error { // want flushFromParam:`^statusOnly\[1\]$`
	p, err := v1.FetchWidgetStatusPatcher(ctx, r.Client, client.ObjectKeyFromObject(old))
	if err != nil {
		return err
	}
	p.Object().Status.Ready = old.Status.Ready
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: status replayed from before the re-read \(computed from old, read before the re-read\) through Flush: decide it in Retry's mutate, from the object it re-reads$`
}

// Twin: the patcher made at the only read; the status decided from it.
func (r *Reconciler) flushAtRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	p := v1.NewWidgetStatusPatcher(r, w)
	w.Status.ObservedGeneration = w.Generation
	w.Status.Ready = ready(w)
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher`
}

// Twin: after the Fetch, decided from the fetched object and external
// inputs only.
func (r *Reconciler) flushRecomputed(ctx context.Context, key client.ObjectKey, fetched bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	p, err := v1.FetchWidgetStatusPatcher(ctx, r.Client, key)
	if err != nil {
		return err
	}
	w = p.Object()
	w.Status.ObservedGeneration = w.Generation
	w.Status.Ready = fetched && ready(w)
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher`
}

// Twin: a closure re-reads, the status recomputed from the fresh object.
func (r *Reconciler) flushClosureRecomputed(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		p := v1.NewWidgetStatusPatcher(r, latest)
		latest.Status.Ready = ready(latest)
		return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher`
	})
}

// The same replay handwritten, without a closure: a fresh object read
// with Get, its status copied from the object given.
func (r *Reconciler) updateFromParam(ctx context.Context, old *v1.Widget) error { // want updateFromParam:`^statusOnly\[1\]$`
	latest := &v1.Widget{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(old), latest); err != nil {
		return err
	}
	latest.Status = old.Status
	return r.Status().Update(ctx, latest) // want `^blind: Status\(\).Update of Widget: status replayed from before the re-read \(computed from old, read before the re-read\)`
}

// Twin: the fresh object's status decided from it alone.
func (r *Reconciler) updateRecomputed(ctx context.Context, old *v1.Widget) error { // want updateRecomputed:`^statusOnly\[1\]$`
	latest := &v1.Widget{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(old), latest); err != nil {
		return err
	}
	latest.Status.ObservedGeneration = latest.Generation
	return r.Status().Update(ctx, latest) // want `^optimistic: Status\(\).Update of Widget: Update sends the object's resourceVersion`
}
