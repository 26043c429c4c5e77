package replay

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Values of another type than the status field they end up in, derived
// from the object read before the retry: a Condition, a generation.

func (r *Reconciler) conditionSet(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want conditionSet:`^statusOnly\[2\]$`
	cond := metav1.Condition{Type: "Ready", Status: "True", ObservedGeneration: w.Generation}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		meta.SetStatusCondition(&latest.Status.Conditions, cond)
		return r.Status().Update(ctx, latest) // want `^blind: Status\(\).Update of Widget: status replayed from before the re-read \(assigned from captured cond, computed from w before the re-read\) \(not moved to the patcher: the status assigned at line 24 is decided before the re-read at line 21, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

func (r *Reconciler) conditionAppend(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want conditionAppend:`^statusOnly\[2\]$`
	cond := readyCondition(w)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status.Conditions = append(latest.Status.Conditions, cond)
		return r.Status().Update(ctx, latest) // want `^blind: .*\(assigned from captured cond, computed from w before the re-read\) \(not moved to the patcher: the status assigned at line 36 is decided before the re-read at line 33, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

func (r *Reconciler) conditionFound(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want conditionFound:`^statusOnly\[2\]$`
	old := meta.FindStatusCondition(w.Status.Conditions, "Ready")
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		meta.SetStatusCondition(&latest.Status.Conditions, *old)
		return r.Status().Update(ctx, latest) // want `^blind: .*\(assigned from captured old, computed from w before the re-read\) \(not moved to the patcher: the status assigned at line 48 is decided before the re-read at line 45, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

func (r *Reconciler) observedGeneration(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want observedGeneration:`^statusOnly\[2\]$`
	gen := w.Generation
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status.ObservedGeneration = gen
		return r.Status().Update(ctx, latest) // want `^blind: .*\(assigned from captured gen, computed from w before the re-read\) \(not moved to the patcher: the status assigned at line 60 is decided before the re-read at line 57, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

// The generation through the object's method, into a Condition built inside.
func (r *Reconciler) generationInLiteral(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want generationInLiteral:`^statusOnly\[2\]$`
	gen := w.GetGeneration()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		meta.SetStatusCondition(&latest.Status.Conditions, metav1.Condition{Type: "Ready", ObservedGeneration: gen})
		return r.Status().Update(ctx, latest) // want `^blind: .*\(assigned from captured gen, computed from w before the re-read\) \(not moved to the patcher: the status assigned at line 73 is decided before the re-read at line 70, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

func derivedRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget], w *v1.Widget) error { // want derivedRetry:`^statusOnly\[2\]$`
	gen := w.Generation
	return p.Retry(ctx, func(live *v1.Widget) error { // want `^blind: Patcher.Retry of Widget: status replayed from before the re-read \(assigned from captured gen, computed from w before the re-read\) in Retry's mutate$`
		live.Status.ObservedGeneration = gen
		return nil
	})
}

func readyCondition(w *v1.Widget) metav1.Condition { // want readyCondition:`^statusOnly\[0\]$`
	return metav1.Condition{Type: "Ready", Status: "True", ObservedGeneration: w.Generation}
}

// Twins: recomputed inside from the fresh object.
func (r *Reconciler) conditionRecomputed(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		meta.SetStatusCondition(&latest.Status.Conditions, readyCondition(latest))
		latest.Status.Conditions = append(latest.Status.Conditions, metav1.Condition{ObservedGeneration: latest.Generation})
		latest.Status.ObservedGeneration = latest.GetGeneration()
		return r.Status().Update(ctx, latest) // want `^optimistic: `
	})
}

// Twins: a constant built before the retry, an external input (a
// parameter of another type, a value fetched from elsewhere even with the
// object's name as its key, also through a helper of the package).
func (r *Reconciler) conditionExternal(ctx context.Context, key client.ObjectKey, w *v1.Widget, gen int64, p Prober) error { // want conditionExternal:`^statusOnly\[2\]$`
	cond := metav1.Condition{Type: "Ready", Status: "True"}
	reason, err := p.Probe(ctx, w.Name)
	if err != nil {
		return err
	}
	msg := r.probeVia(ctx, p, w)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		cond.Reason = reason
		meta.SetStatusCondition(&latest.Status.Conditions, cond)
		meta.SetStatusCondition(&latest.Status.Conditions, metav1.Condition{Type: "Probed", Reason: msg})
		latest.Status.ObservedGeneration = gen
		return r.Status().Update(ctx, latest) // want `^optimistic: `
	})
}

func externalRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget], gen int64) error {
	cond := metav1.Condition{Type: "Ready", Status: "True"}
	return p.Retry(ctx, func(live *v1.Widget) error { // want `^optimistic: Patcher.Retry of Widget: generated patcher \(write mode not seen: patcher from parameter p of externalRetry\)$`
		live.Status.ObservedGeneration = gen
		meta.SetStatusCondition(&live.Status.Conditions, cond)
		cond.ObservedGeneration = live.Generation
		return nil
	})
}

type Prober interface {
	Probe(ctx context.Context, name string) (string, error)
}

func (r *Reconciler) probeVia(ctx context.Context, p Prober, w *v1.Widget) string { // want probeVia:`^statusOnly\[2\]$`
	s, _ := p.Probe(ctx, w.Name)
	return s
}
