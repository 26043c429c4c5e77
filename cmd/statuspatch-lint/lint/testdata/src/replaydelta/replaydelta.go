// Package replaydelta: shapes of the audited operators that write, after a
// re-read, a change computed before it, and are not replays: what is
// applied to the fresh object is this writer's own change (a delta), not
// a status decided from the old object, so the fresh object's other
// fields and other writers' conditions survive.
package replaydelta

import (
	"context"

	v1 "example.com/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// conditionsDiff holds the conditions one writer changed between two
// versions of an object (the shape of Flux's runtime/patch helper, which
// re-reads the object and applies the diff to it before patching with
// the optimistic lock).
type conditionsDiff struct {
	changed []metav1.Condition
}

func diffConditions(before, after *v1.Widget) *conditionsDiff { // want diffConditions:`^statusOnly\[0 1\]$`
	d := &conditionsDiff{}
	for _, c := range after.Status.Conditions {
		if old := meta.FindStatusCondition(before.Status.Conditions, c.Type); old == nil || old.Status != c.Status {
			d.changed = append(d.changed, c)
		}
	}
	return d
}

func (d *conditionsDiff) apply(w *v1.Widget) { // want apply:`^statusOnly\[0\]$`
	for _, c := range d.changed {
		meta.SetStatusCondition(&w.Status.Conditions, c)
	}
}

// The rule reads the closure's own assignments and in-place updates of
// the status, not those of the helpers it calls: diff.apply(latest) is
// not followed, and must not be reported.
func patchConditions(ctx context.Context, c client.Client, before, after *v1.Widget) error { // want patchConditions:`^statusOnly\[2 3\]$`
	diff := diffConditions(before, after)
	key := client.ObjectKeyFromObject(after)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := c.Get(ctx, key, latest); err != nil {
			return err
		}
		patch := client.MergeFromWithOptions(latest.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{})
		diff.apply(latest)
		return c.Status().Patch(ctx, latest, patch) // want `^optimistic: Status\(\).Patch of Widget: MergeFromWithOptimisticLock$`
	})
}

// Result is what a scaler reported (the shape of KEDA's scale handler:
// results fetched from outside, filtered against the old status so that
// only what changed is applied to the re-read object).
type Result struct {
	Conditions []metav1.Condition
}

// updates holds values of the fetched result; the old status only decides
// which of them to keep (control, not data): not a replay.
func applyResult(ctx context.Context, c client.Client, w *v1.Widget, result Result) error { // want applyResult:`^statusOnly\[2\]$`
	var updates []metav1.Condition
	for _, rc := range result.Conditions {
		if old := meta.FindStatusCondition(w.Status.Conditions, rc.Type); old == nil || old.Status != rc.Status {
			updates = append(updates, rc)
		}
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current := &v1.Widget{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(w), current); err != nil {
			return err
		}
		for _, u := range updates {
			meta.SetStatusCondition(&current.Status.Conditions, u)
		}
		return c.Status().Update(ctx, current) // want `^optimistic: Status\(\).Update of Widget: Update sends the object's resourceVersion$`
	})
}
