package replay

import (
	"context"

	v1 "example.com/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Adversary s97c: the same-variable replay inside loops and its false
// alarms.

// R3 (s96): decided before a second Get inside a loop's turn, stored
// after it: a replay every turn.
func (r *Reconciler) loopReReadSameVar(ctx context.Context, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		ready := !w.Status.Ready
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(computed from the Widget's fields at line \d+, read before the re-read\)`
			return err
		}
	}
	return nil
}

// Decided from the previous turn's read of the same key, stored after
// this turn's Get.
func (r *Reconciler) loopCarried(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	ready := false
	for range 3 {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
			return err
		}
		ready = !w.Status.Ready
	}
	return nil
}

// Twin: the loop re-reads on some turns and decides again there.
func (r *Reconciler) loopRecomputed(ctx context.Context, keys []client.ObjectKey, refresh bool) error {
	w := &v1.Widget{}
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		ready := !w.Status.Ready
		if refresh {
			if err := r.Get(ctx, k, w); err != nil {
				return err
			}
			ready = !w.Status.Ready
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
	}
	return nil
}

// Twin: a re-read in another branch of the turn that continues.
func (r *Reconciler) loopOtherBranch(ctx context.Context, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		ready := !w.Status.Ready
		if w.DeletionTimestamp != nil {
			if err := r.Get(ctx, k, w); err != nil {
				return err
			}
			continue
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
	}
	return nil
}

// Twin: each turn reads, the last read decides after the loop.
func (r *Reconciler) loopLastRead(ctx context.Context, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	last := false
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		last = w.Status.Ready
	}
	w.Status.Ready = !last
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Twin: the first Get fails over to a second reader; the decision is
// made from whichever read succeeded.
func (r *Reconciler) getFallback(ctx context.Context, key client.ObjectKey, api client.Reader) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		if !apierrors.IsNotFound(err) {
			return err
		}
		if err := api.Get(ctx, key, w); err != nil {
			return err
		}
	}
	w.Status.Ready = !w.Status.Ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// The tutorial: a first condition written, then the re-fetch; the
// decision after it is made from external facts and the re-read.
func (r *Reconciler) tutorialRefetch(ctx context.Context, key client.ObjectKey, found bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if len(w.Status.Conditions) == 0 {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
	}
	status := "False"
	if found {
		status = "True"
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: status, Reason: "Reconciling", ObservedGeneration: int64(len(w.Name))})
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// The generation through its method before the re-read, stored after:
// a replay as w.Generation is.
func (r *Reconciler) generationMethod(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	gen := w.GetGeneration()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = gen
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
}

// Twin: the key through its methods.
func (r *Reconciler) keyMethod(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	name := w.GetName()
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
		return err
	}
	w.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: "True", Reason: name}}
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// A copy taken before the re-read, its status stored after.
func (r *Reconciler) copyBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	old := w.DeepCopy()
	old.Status.Ready = true
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status = old.Status
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
}

// Twin: the generation through its method after the re-read.
func (r *Reconciler) generationMethodFresh(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.GetGeneration()
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Decided on one branch before a merge the re-read follows.
func (r *Reconciler) mergeThenReRead(ctx context.Context, key client.ObjectKey, flip bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := false
	if flip {
		ready = !w.Status.Ready
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
}

// Twin: a hand-written retry loop deciding again each turn from the
// re-read at the end of the turn before.
func (r *Reconciler) handRetry(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for range 3 {
		w.Status.Ready = !w.Status.Ready
		err := r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
		if !apierrors.IsConflict(err) {
			return err
		}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
	}
	return nil
}

// The same loop with the decision taken once, before it: each retry
// replays it.
func (r *Reconciler) handRetryStale(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	for range 3 {
		w.Status.Ready = ready
		err := r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
		if !apierrors.IsConflict(err) {
			return err
		}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
	}
	return nil
}

// Twin: carried from the previous turn's object, another key: no replay
// of this object's status.
func (r *Reconciler) loopCarriedOtherKeys(ctx context.Context, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	total := int64(0)
	for _, k := range keys {
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		total += w.Status.ObservedGeneration
		w.Status.ObservedGeneration = total
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
	}
	return nil
}

// Twin: the key built in the turn.
func (r *Reconciler) loopCarriedBuiltKey(ctx context.Context, names []string) error {
	w := &v1.Widget{}
	ready := false
	for _, n := range names {
		key := client.ObjectKey{Namespace: "ns", Name: n}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
		ready = !w.Status.Ready
	}
	return nil
}

func (r *Reconciler) desired(w *v1.Widget) bool { return !w.Status.Ready } // want desired:`^statusOnly\[0\]$`

// Decided by a helper of the package before the re-read.
func (r *Reconciler) helperBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := r.desired(w)
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(computed from the Widget's fields read by the call at line \d+`
}

// Twin: the helper after the re-read.
func (r *Reconciler) helperAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = r.desired(w)
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}
