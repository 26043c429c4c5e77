package advgeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func sizeStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

// The caller writes the object itself before and after the helper's
// write: its own patcher and the helper's would be alive at once.
func (r *Reconciler) around(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the status write of w at line 31 cannot be moved \(w is passed to sizeStatus at line 27, where obj is passed to the function value mutate at line 12, which is not followed: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\), and the writes of w in this function move together\)$`
		return err
	}
	if err := sizeStatus(ctx, r.Client, w, func(w *v1.Widget) { w.Status.Size = 1 }); err != nil {
		return err
	}
	w.Status.Ready = false
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is passed to sizeStatus at line 27, where obj is passed to the function value mutate at line 12, which is not followed: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}
