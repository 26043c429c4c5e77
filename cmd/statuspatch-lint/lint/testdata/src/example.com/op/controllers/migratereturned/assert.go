package migratereturned

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// An interface the object is asserted to is the object (lws's
// setControllerReferenceWithStatefulSet: ro, ok := owner.(runtime.Object),
// given to apiutil.GVKForObject): followed as it, a reader moves the
// write, a change through it keeps it.

// ownerKind reads the object through the assertion.
func ownerKind(owner metav1.Object, scheme *runtime.Scheme) (string, error) { // want ownerKind:`statusOnly\[0\]`
	ro, ok := owner.(runtime.Object)
	if !ok {
		return "", fmt.Errorf("%T is not a runtime.Object", owner)
	}
	return apiutil.GVKForObject(ro, scheme)
}

// Asserted reads its object through an asserted interface: moved.
type Asserted struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *Asserted) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	kind, err := ownerKind(w, r.Scheme)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = kind != ""
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// ownerRename changes the object through the assertion.
func ownerRename(owner metav1.Object) {
	if o, ok := owner.(client.Object); ok {
		o.SetFinalizers(nil)
	}
}

// AssertedWriter changes its object through an asserted interface: kept.
type AssertedWriter struct{ client.Client }

func (r *AssertedWriter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ownerRename(w)
	w.Status.Ready = false
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to ownerRename at line \d+, where owner is asserted to client.Object at line \d+, where o.SetFinalizers is called`
}

// ownerPrinted prints its owner with %v: a String method of its dynamic
// type may run, which -fix does not see.
func ownerPrinted(owner metav1.Object) error {
	return fmt.Errorf("%T %v", owner, owner)
}

// AssertedPrinted's object is printed with %v: kept, naming the call.
type AssertedPrinted struct{ client.Client }

func (r *AssertedPrinted) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Ready = ownerPrinted(w) == nil
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to ownerPrinted at line \d+, where owner is passed to fmt.Errorf at line \d+`
}
