// Package migrateexistingedge: writes beside a patcher the code made
// that s99's reader found mishandled (issue 80): a List item's write
// became a Flush of a cached copy (the finding erased), a deferred
// write registered before the patcher got a false reason, and a
// decision read from the status stayed before the Flush with no word
// (since s101R it moves into the patcher's Retry).
package migrateexistingedge

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

type widgetList struct {
	client.ObjectList
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// A List item with a patcher made from it: a Flush of the cached copy
// is what the cached item row refuses, so the write stays, reported.
func (r *OrderReconciler) item(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		item := &list.Items[i]
		p := patchers.NewWidgetStatusPatcher(r.Client, item)
		_ = p
		item.Status.Ready = true
		if err := r.Status().Update(ctx, item); err != nil { // want `^handwritten status write to Widget.*item is taken from an element at .*, a copy the model cannot show fresh, and its patcher p, made at .*, holds that copy`
			return err
		}
	}
	return nil
}

// A deferred write registered before the patcher is made: it stays, and
// its reason says -fix's rule, not "after this write".
func (r *OrderReconciler) deferred(ctx context.Context, req ctrl.Request) (err error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		if uerr := r.Status().Update(ctx, order); uerr != nil && err == nil { // want `^handwritten status write to Widget.*order's patcher p is made at .*, after the defer that registers this write: -fix moves a deferred write only onto a patcher made before its defer`
			err = uerr
		}
	}()
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	return p.Flush(ctx)
}

// A decision read from the status beside the code's patcher: the write
// becomes p's Retry, the decision its mutate (until s101R a Flush, the
// fix saying the decision stays before it: "-fix does not move a
// decision into the Retry of a patcher the code made").
func (r *OrderReconciler) decided(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		order.Status.Size = order.Spec.Size + 1
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
