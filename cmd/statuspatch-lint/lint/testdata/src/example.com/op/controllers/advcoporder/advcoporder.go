package advcoporder

import (
	"context"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// readsMany: the status statement reads five metadata fields a later
// statement sets at once (w.ObjectMeta = ...). The kept reason names one
// of them: the first in field-path order (Finalizers), on every run.
// At 92b8ecd7 it was the first of a map's iteration, a different field
// from run to run, so a -ci baseline or a review diff flapped.
func readsMany(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 19 in the mutate: line 19 reads w\.Finalizers, which line 20 sets after it`
		w.Status.Ready = w.Name != "" && w.Namespace != "" && w.Labels["a"] != "" && len(w.Finalizers) > 0 && w.Generation > 0
		w.ObjectMeta = metav1.ObjectMeta{Name: "x"}
		return nil
	})
	return err
}
