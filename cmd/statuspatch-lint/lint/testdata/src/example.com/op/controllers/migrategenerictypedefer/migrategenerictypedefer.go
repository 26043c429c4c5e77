// Package migrategenerictypedefer: a generic reconciler type whose
// method reads its object of the type's parameter and writes it with
// Update, deferred to run as the method returns (issue 80, U2's project
// D). The patcher is patchers.ForType of the object made after the read,
// the deferred write its Flush, the named error result and NotFound
// handled as the code did; the hooks the method calls with the object are
// judged by every value the package sets them to.
package migrategenerictypedefer

import (
	"context"

	v1 "example.com/op/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// loop is the reconcile loop the Widget reconcilers share.
type loop[T client.Object] struct {
	C       client.Client
	New     func() T
	Hook    func(ctx context.Context, obj T) (ctrl.Result, error)
	Observe func(obj T, size int)
}

func (r *loop[T]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		r.Observe(obj, len(obj.GetName()))
		if uerr := r.C.Status().Update(ctx, obj); uerr != nil { // want `^handwritten status write to an object of unknown kind`
			if apierrors.IsNotFound(uerr) {
				return
			}
			if err == nil {
				err = uerr
			}
		}
	}()
	return r.Hook(ctx, obj)
}

type sizer struct{ client.Client }

func (s *sizer) loop() *loop[*v1.Widget] {
	return &loop[*v1.Widget]{
		C:       s.Client,
		New:     func() *v1.Widget { return &v1.Widget{} },
		Hook:    s.hook,
		Observe: func(w *v1.Widget, n int) { w.Status.Size = n },
	}
}

// hook sets the status from the spec alone.
func (s *sizer) hook(ctx context.Context, w *v1.Widget) (ctrl.Result, error) { // want hook:"statusOnly\\[1\\]"
	w.Status.Size = w.Spec.Size
	w.Status.Ready = true
	return ctrl.Result{}, nil
}

// plainLoop writes at the end, not deferred: the patcher is made after
// the read too.
type plainLoop[T client.Object] struct {
	C    client.Client
	New  func() T
	Hook func(T)
}

func (r *plainLoop[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.Hook(obj)
	return ctrl.Result{}, r.C.Status().Update(ctx, obj) // want `^handwritten status write to an object of unknown kind`
}

var _ = plainLoop[*v1.Widget]{nil, func() *v1.Widget { return &v1.Widget{} }, func(w *v1.Widget) { w.Status.Ready = true }}
