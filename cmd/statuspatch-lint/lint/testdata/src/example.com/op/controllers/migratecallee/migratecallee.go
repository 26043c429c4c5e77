// Package migratecallee: what a callee does to the object, from its
// body: karpenter's IsManaged reads it in a closure handed to a generic
// slice helper (a reader); a closure that changes the spec, or that is
// kept, is not.
package migratecallee

import (
	"context"
	"slices"

	v1 "example.com/op/api/v1"
	"example.com/op/managedutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	images []string
}

// karpenter's counter controller: IsManaged, then the base.
func (r *Reconciler) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	if !managedutil.IsManaged(w, r.images) {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The same in a closure of the package.
func (r *Reconciler) local(ctx context.Context, w *v1.Widget) error {
	managed := false
	for _, image := range r.images {
		if func() bool { return w.Spec.Template != nil && w.Spec.Template.Image == image }() {
			managed = true
		}
	}
	if !managed {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A closure that only reads the object, kept: it cannot change it.
func (r *Reconciler) retained(ctx context.Context, w *v1.Widget) error {
	managedutil.Retain(w)
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method of the kind whose body changes only the status
// (karpenter's CapacityBuffer.SetCondition), before the base and after.
func (r *Reconciler) condition(ctx context.Context, w *v1.Widget) error {
	w.SetCondition(metav1.Condition{Type: "Seen"})
	stored := w.DeepCopy()
	w.SetCondition(metav1.Condition{Type: "Ready"})
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method that changes the spec: it stays.
func (r *Reconciler) grown(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Grow()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Grow is called at line 69, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

// The closure changes the spec: it stays.
func (r *Reconciler) resized(ctx context.Context, w *v1.Widget) error {
	managedutil.Resize(w, []int{1})
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is aliased or handed on at line 76, before the read`
}

// widgetList is what a List fills: items the cache holds.
type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// karpenter's overlays: &list.Items[i] written in place, a List item.
func (r *Reconciler) overlays(ctx context.Context) error {
	var list widgetList
	if err := r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		stored := list.Items[i].DeepCopy()
		list.Items[i].Status.Ready = true
		if err := r.Status().Patch(ctx, &list.Items[i], client.MergeFrom(stored)); err != nil { // want `\(not moved to the patcher: the object &list.Items\[i\] is an item of a list, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(&list.Items\[i\]\)\), which reads it fresh, and Flush it here\)`
			return err
		}
	}
	return nil
}

// jobset's Reconcile: a local value read by Get, its address handed to
// the helper that writes it.
func (r *Reconciler) byValue(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	return r.updateStatus(ctx, &w)
}

func (r *Reconciler) updateStatus(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `its call at line 112 passes &w, the address of a local value declared at line 108: the patcher is made of a pointer variable; declare w := &v1.Widget\{\}, read into it and pass it \(FetchWidgetStatusPatcher there makes its patcher\)`
}

// A method of the kind that reads the spec through a method declared
// after it, and returns an error (karpenter's RuntimeValidate): a read.
func (r *Reconciler) validated(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = w.Validate() == nil
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// karpenter's liveness: a closure before the base compares a kind named
// through a runtime.Object (object.GVK), then the base.
func (r *Reconciler) owned(ctx context.Context, w *v1.Widget, kinds []string) error {
	if !slices.ContainsFunc(kinds, func(k string) bool { return k == managedutil.KindOf(w) }) {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method of the kind that hands a reference three functions deep, each
// only reading it (karpenter's RuntimeValidate): a read.
func (r *Reconciler) validatedDeep(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = w.ValidateDeep() == nil
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
