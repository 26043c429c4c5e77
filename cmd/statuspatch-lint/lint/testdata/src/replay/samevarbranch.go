package replay

import (
	"context"

	v1 "example.com/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Review R3 of ab0c5e8: twins of reReadSameVar that are not replays.

// Decided from the first read, decided again from the re-read on the
// path that re-reads: no path stores the first read's decision after the
// re-read.
func (r *Reconciler) reReadSameVarRecomputed(ctx context.Context, key client.ObjectKey, refresh bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	if refresh {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		ready = !w.Status.Ready
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// The name, loaded before the re-read of the same key, is the re-read's.
func (r *Reconciler) reReadSameVarName(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	name := w.Name
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: "True", Reason: name}}
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// The first read's fields used for the second's key only.
func (r *Reconciler) reReadSameVarKey(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	peer := client.ObjectKey{Namespace: w.Namespace, Name: w.Name + "-peer"}
	if err := r.Get(ctx, peer, w); err != nil {
		return err
	}
	w.Status.Ready = !w.Status.Ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Each turn Gets, then decides from what it got.
func (r *Reconciler) reReadSameVarLoop(ctx context.Context, first client.ObjectKey, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, first, w); err != nil {
		return err
	}
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		w.Status.Ready = !w.Status.Ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
	}
	return nil
}

// Control: decided before a re-read in a branch, kept on both paths.
func (r *Reconciler) reReadSameVarBranchStale(ctx context.Context, key client.ObjectKey, refresh bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	if refresh {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
}
