package replay

import (
	"context"
	"time"

	v1 "example.com/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Reviewer s97 RC: false alarms and missed replays of the loop order.

// kubebuilder's tutorial, unconditional: Get, a condition, the write,
// the re-fetch, another condition decided after it, the write.
func (r *Reconciler) rcTutorial(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
	if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "True", Reason: "Reconciled", ObservedGeneration: w.Generation})
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// A loop over a list's items, each read and decided from its own read.
func (r *Reconciler) rcListItems(ctx context.Context, key client.ObjectKey, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
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

// A polling loop, then a decision from the last read.
func (r *Reconciler) rcPoll(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := w.Status.Ready
	for !ready {
		time.Sleep(time.Millisecond)
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		ready = w.Status.Ready
	}
	w.Status.ObservedGeneration = w.Generation
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// for { Get; if done break } then decide.
func (r *Reconciler) rcPollBreak(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	done := false
	for {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		done = w.Status.Ready
		if done {
			break
		}
	}
	w.Status.Ready = done
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

func (r *Reconciler) rcName(w *v1.Widget) string { return w.Name + "-x" } // want rcName:`^statusOnly\[0\]$`

// A helper before the re-read whose result is a name, not status.
func (r *Reconciler) rcHelperName(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	n := r.rcName(w)
	if err := r.Get(ctx, client.ObjectKey{Namespace: key.Namespace, Name: w.Name}, w); err != nil {
		return err
	}
	w.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: "True", Reason: n}}
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// The generation used for a log only before the re-read.
func (r *Reconciler) rcGenLog(ctx context.Context, key client.ObjectKey, log func(...any)) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	log("generation", w.GetGeneration())
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.GetGeneration()
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// A copy before the re-read, reassigned after it as the patch base.
func (r *Reconciler) rcCopyBase(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	_ = base
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base = w.DeepCopy()
	w.Status.Ready = !base.Status.Ready
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Widget: client\.MergeFrom without optimistic lock`
}

// Carried across turns in a captured variable, the key taken in the turn.
func (r *Reconciler) rcCapturedOtherKeys(ctx context.Context, keys []client.ObjectKey) error {
	w := &v1.Widget{}
	total := int64(0)
	defer func() { _ = total }()
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

// A captured variable stored before the re-read and again after it.
func (r *Reconciler) rcCapturedKilled(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	defer func() { _ = ready }()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready = !w.Status.Ready
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Carried across turns through a closure, the same key each turn: a
// replay not reported (a load in a closure called after the write).
func (r *Reconciler) rcClosureSameKey(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	ready := false
	record := func() { ready = !w.Status.Ready }
	for range 3 {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = ready
		if err := r.Status().Update(ctx, w); err != nil { // want `^optimistic: Status\(\)\.Update of Widget`
			return err
		}
		record()
	}
	return nil
}

func (r *Reconciler) rcDeep(w *v1.Widget) bool { return r.desired(w) } // want rcDeep:`^statusOnly\[0\]$`

// A helper two deep decides before the re-read.
func (r *Reconciler) rcHelperTwoDeep(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := r.rcDeep(w)
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(computed from the Widget's fields read by the call at line \d+`
}

func (r *Reconciler) rcGen(w *v1.Widget) int64 { return w.GetGeneration() } // want rcGen:`^statusOnly\[0\]$`

// A helper calling the object's method before the re-read.
func (r *Reconciler) rcHelperMethod(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	gen := r.rcGen(w)
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = gen
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(computed from the Widget's GetGeneration in the call at line \d+`
}

// Twin: the helper two deep after the re-read.
func (r *Reconciler) rcHelperTwoDeepAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = r.rcDeep(w)
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Twin: the helper's method call after the re-read.
func (r *Reconciler) rcHelperMethodAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = r.rcGen(w)
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

func (r *Reconciler) rcNameOf(w *v1.Widget) string { return w.GetName() } // want rcNameOf:`^statusOnly\[0\]$`

// Twin: a helper's method call before the re-read returning the name.
func (r *Reconciler) rcHelperGetName(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	n := r.rcNameOf(w)
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: "True", Reason: n}}
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}

// Twin: the captured variable's stale store still reaches the status on
// the path without the second store.
func (r *Reconciler) rcCapturedBranch(ctx context.Context, key client.ObjectKey, refresh bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	defer func() { _ = ready }()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if refresh {
		ready = !w.Status.Ready
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read`
}

// Carried across turns, the key a parameter's pointee the turn changes:
// another object each turn.
func (r *Reconciler) rcCarriedKeyPtr(ctx context.Context, key *client.ObjectKey, names []string) error {
	w := &v1.Widget{}
	ready := false
	for _, n := range names {
		key.Name = n
		if err := r.Get(ctx, *key, w); err != nil {
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
