package migrategeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Referenced is a kind of this module that hands out its conditions: a
// helper over it takes *patcher.Patcher[T], T Referenced (issue 80).
type Referenced interface {
	client.Object
	ConditionsRef() *[]metav1.Condition
}

// markSeen writes any Referenced kind's status.
func markSeen(ctx context.Context, c client.Client, obj Referenced) error {
	return c.Status().Update(ctx, obj) // want `^handwritten status write to Widget`
}

func (r *ItemReconciler) seen(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return markSeen(ctx, r.Client, w)
}

// markReady calls a method of the interface on the object: a
// per-package pass does not follow its implementations.
func markReady(ctx context.Context, c client.Client, obj Referenced) error {
	meta.SetStatusCondition(obj.ConditionsRef(), metav1.Condition{Type: "Ready", Status: "True"})
	return c.Status().Update(ctx, obj) // want `^handwritten status write to Widget.*\(not moved to the patcher: obj is used before the write: .*ConditionsRef`
}

func (r *ItemReconciler) ready(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return markReady(ctx, r.Client, w)
}

// SetReady is exported: only the whole module's driver moves it, with
// its callers in other packages; a per-package pass keeps its finding as
// it was (no caller here has a generated patcher to name).
func SetReady(ctx context.Context, c client.Client, obj Referenced) error { // want SetReady:"why"
	return c.Status().Update(ctx, obj) // want `^handwritten status write to Referenced \(an interface\): use the generated status patcher of the object's concrete type$`
}
