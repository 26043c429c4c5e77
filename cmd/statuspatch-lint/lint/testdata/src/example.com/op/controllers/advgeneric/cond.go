package advgeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type conditioned interface {
	client.Object
	SetCondition(metav1.Condition)
}

func condStatus[T conditioned](ctx context.Context, c client.Client, obj T, cond metav1.Condition) error {
	base := obj.DeepCopyObject().(T)
	obj.SetCondition(cond)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

// The caller writes the object itself before and after the helper's
// write, which changes it by a method.
func (r *Reconciler) cond(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the status write of w at line 37 cannot be moved \(w is passed to condStatus at line 33, where obj\.SetCondition is called at line 18 \(SetCondition is a method of an interface: which implementation runs there is not followed\): it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\), and the writes of w in this function move together\)$`
		return err
	}
	if err := condStatus(ctx, r.Client, w, metav1.Condition{Type: "Sized", Status: "True"}); err != nil {
		return err
	}
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is passed to condStatus at line 33, where obj\.SetCondition is called at line 18 \(SetCondition is a method of an interface: which implementation runs there is not followed\): it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}
