// Package migrateexistingretry: a decision beside a patcher the code
// made (issue 80). The write becomes that patcher's Retry, its decision
// (the status computed from what was read before) mutate's body, where
// the classifier -fix's own patcher goes by says it may run again: a
// 409 re-reads and decides again, where a Flush would return it and the
// next reconcile would decide twice. Where it may not, the write is the
// patcher's Flush and the fix names what keeps the decision out.
package migrateexistingretry

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// A count decided from the status, the write's error wrapped.
func (r *OrderReconciler) counted(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		order.Status.Size = order.Status.Size + 1
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return fmt.Errorf("widget %s: %w", order.Name, err)
	}
	return nil
}

// A condition set when it is not yet true.
func (r *OrderReconciler) condition(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return ctrl.Result{}, p.Flush(ctx)
	}
	if !meta.IsStatusConditionTrue(order.Status.Conditions, "Available") {
		meta.SetStatusCondition(&order.Status.Conditions, metav1.Condition{Type: "Available", Status: "True", Reason: "Sized"})
	}
	return ctrl.Result{}, r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The patcher used after the write: Retry refreshes the object in place,
// so order and p.Object() after it are the object as stored (after a
// conflict, the fresh read with the decision made again on it), and the
// Flush after it sends only what changes after it.
func (r *OrderReconciler) usedAfter(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Status.Size < order.Spec.Size {
		order.Status.Size = order.Spec.Size
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	fmt.Println("stored size", p.Object().Status.Size)
	order.Status.Ready = true
	return p.Flush(ctx)
}

// A patcher made by Fetch: its object is p.Object(), whose declaration
// goes when only the decision and the write use it (Retry's function's
// parameter takes its name).
func (r *OrderReconciler) fetched(ctx context.Context, req ctrl.Request) error {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return client.IgnoreNotFound(err)
	}
	order := p.Object()
	if order.Status.Size > 3 {
		order.Status.Ready = true
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A patcher made by Fetch...Into the object: the decision starts after
// its error's check.
func (r *OrderReconciler) fetchedInto(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	p, err := patchers.FetchWidgetStatusPatcherInto(ctx, r.Client, req.NamespacedName, order)
	if err != nil {
		return client.IgnoreNotFound(err)
	}
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return p.Flush(ctx)
	}
	order.Status.Ready = order.Status.Size > 0
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Two writes in one life: each decision moves into its own Retry, the
// second's starting after the first write (the object is then what the
// first one stored).
func (r *OrderReconciler) twice(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return p.Flush(ctx)
	}
	order.Status.Ready = order.Status.Size > 0
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if order.Status.Ready {
		order.Status.Size = order.Status.Size * 2
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A deferred Flush of the patcher runs when the function returns, after
// the write: the decision moves.
func (r *OrderReconciler) deferredFlush(ctx context.Context, req ctrl.Request) (err error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() {
		order.Status.Ready = err == nil
		if ferr := p.Flush(ctx); ferr != nil && err == nil {
			err = ferr
		}
	}()
	if order.Status.Size == 0 {
		order.Status.Size = order.Spec.Size
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A write under an if whose condition reads the status (kubebuilder's
// "decide once"): the if moves whole into Retry's function, its
// condition asked again on the fresh object after a conflict.
func (r *OrderReconciler) guarded(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	if !meta.IsStatusConditionTrue(order.Status.Conditions, "Sized") {
		order.Status.Size = order.Spec.Size
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// The same guard with no patcher in the code: -fix makes its own, and
// the one classifier moves the if into its Retry alike (until s101R a
// reader of the status in the condition, meta.IsStatusConditionTrue
// given the conditions, counted as a change before the body, and the
// write was a Flush with no word).
func (r *OrderReconciler) guardedOwn(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !meta.IsStatusConditionTrue(order.Status.Conditions, "Sized") {
		order.Status.Size = order.Spec.Size
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}
