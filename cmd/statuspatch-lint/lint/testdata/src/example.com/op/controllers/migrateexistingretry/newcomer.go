package migrateexistingretry

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var readyDecisions atomic.Int64

// The newcomer scaffold's markReady, its patcher made by hand after the
// read for a failure's early Flush (a project moved in part): Ready
// counted when it was not, the count made once across Retry's attempts;
// then a re-fetch (made p's fresh read) and the generation it
// describes, which decides nothing from the status: a Flush.
func (r *OrderReconciler) markReady(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, w)
	if w.Spec.Size < 0 {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Degraded", Status: "True", Reason: "NegativeSize"})
		return p.Flush(ctx)
	}
	if !meta.IsStatusConditionTrue(w.Status.Conditions, "Ready") {
		readyDecisions.Add(1)
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True", Reason: "PartsNamed"})
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
