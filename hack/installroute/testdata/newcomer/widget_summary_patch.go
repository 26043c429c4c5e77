package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// summarize applies the summary by server-side apply of a new typed
// Widget, under a field owner of its own: this controller-runtime's status
// writer has no Apply.
func (r *WidgetReconciler) summarize(ctx context.Context, key client.ObjectKey) error {
	var w widgetsv1.Widget
	if err := r.Client.Get(ctx, key, &w); err != nil {
		return err
	}
	applied := &widgetsv1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: widgetsv1.GroupVersion.String(), Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace},
	}
	applied.Status.Summary = fmt.Sprintf("%d parts", len(w.Status.Parts))
	return r.Client.Status().Patch(ctx, applied, client.Apply, client.FieldOwner("widget-summary"), client.ForceOwnership)
}
