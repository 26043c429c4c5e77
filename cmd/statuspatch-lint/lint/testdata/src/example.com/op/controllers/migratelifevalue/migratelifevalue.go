// Package migratelifevalue: migratelife's shapes on kubebuilder's
// tutorial form, the object a local value read and written by its
// address (var order v1.Widget, r.Get(ctx, key, &order),
// r.Status().Update(ctx, &order)). The object of the model is order,
// passed as &order: the patcher is made over &order, so it holds order
// itself, and each write is its Flush, as in the pointer form (issue 80
// B1: at cc13c6a every write stayed, "the object is &order, the address
// of a local value").
package migratelifevalue

import (
	"context"
	"errors"
	"fmt"

	v1 "example.com/op/api/v1"
	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// An Update of the value.
func (r *OrderReconciler) update(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return client.IgnoreNotFound(err)
	}
	order.Status.Ready = true
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A MergeFrom patch of the value, its base a DeepCopy of it.
func (r *OrderReconciler) merge(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	base := order.DeepCopy()
	order.Status.Size = order.Spec.Size
	return r.Status().Patch(ctx, &order, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The tutorial's Reconcile: an Update, the re-Get, then a MergeFrom
// patch of the same value. One patcher; the re-Get is its fresh read.
func (r *OrderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(order.Status.Conditions) == 0 {
		meta.SetStatusCondition(&order.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		// Re-fetch so that we avoid "the object has been modified".
		if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := order.DeepCopy()
	order.Status.Ready = true
	if err := r.Status().Patch(ctx, &order, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Writes on exclusive paths: an early return that writes, then the final
// write. One patcher; each write is its Flush on its own path.
func (r *OrderReconciler) phases(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, errors.New("negative size")
	}
	order.Status.Size = order.Spec.Size
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// The tutorial with a deferred error condition and an unstructured
// apply of the summary (issue 80's project A, as kubebuilder writes it):
// the deferred write flushes the enclosing function's patcher; the apply
// moves onto a patcher in apply mode made right before it.
func (r *OrderReconciler) deferGuarded(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			logr.FromContextOrDiscard(ctx).Error(err, "record the error")
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, fmt.Sprintf("%d items", order.Spec.Size), "status", "summary"); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A helper of the package writing the value's status, given &order: it
// takes the patcher its caller makes at the read.
func (r *OrderReconciler) withHelper(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	if order.Spec.Size == 0 {
		return r.markEmpty(ctx, &order)
	}
	order.Status.Ready = true
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

func (r *OrderReconciler) markEmpty(ctx context.Context, order *v1.Widget) error {
	order.Status.Ready = false
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// The value copied whole after the read: the copy is another object, and
// a change of it is not order's. The write moves; the copy stays as it is.
func (r *OrderReconciler) copied(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	before := order
	order.Status.Ready = true
	if before.Status.Ready {
		return nil
	}
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

// The value reassigned whole after the read: the patcher's base is not
// what the write's lock was; it stays, naming the line.
func (r *OrderReconciler) reassigned(ctx context.Context, req ctrl.Request, other v1.Widget) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order = other
	order.Status.Ready = true
	return r.Status().Update(ctx, &order) // want `\(not moved to the patcher: order is reassigned at line 174`
}
