// Package migrateevent: an object an event holds (spark-operator's
// EventFilter.Update takes newApp from e.ObjectNew, sets its status and
// writes it), the informer's cached copy, which no Get of the module
// reads. As a List item's, its decision (the statements from the
// object's arrival to the write that can run again) moves into Retry,
// which reads it fresh on a conflict; the patcher is made after the
// assertion's check. A call given ctx whose body only reads moves too.
package migrateevent

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
)

type Handler struct {
	client client.Client
}

// OnUpdate marks the widget an update brings ready: moved, its decision
// in Retry.
func (h *Handler) OnUpdate(ctx context.Context, e event.UpdateEvent) error { // want OnUpdate:`^param1:ObjectOld\(\) param1:ObjectNew\?$`
	w, ok := e.ObjectNew.(*v1.Widget)
	if !ok {
		return nil
	}
	if w.Status.Ready {
		return nil
	}
	w.Status.Ready = true
	return h.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// OnTyped is the same on a typed event, whose object needs no assertion.
func (h *Handler) OnTyped(ctx context.Context, e event.TypedUpdateEvent[*v1.Widget]) error { // want OnTyped:`^heldStruct1:ObjectOld heldStruct1:ObjectNew\?$`
	w := e.ObjectNew
	if w.Status.Size == w.Spec.Size {
		return nil
	}
	w.Status.Size = w.Spec.Size
	return h.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

type Filter struct {
	client client.Client
}

// Update is a predicate's (spark-operator's EventFilter.Update): the if
// that decides moves into mutate with the write, decided again from the
// fresh read; the predicate's answer is the write's error, as before.
func (f *Filter) Update(e event.UpdateEvent) bool { // want Update:`^param0:ObjectOld\? param0:ObjectNew\?$`
	oldW, ok := e.ObjectOld.(*v1.Widget)
	if !ok {
		return false
	}
	newW, ok := e.ObjectNew.(*v1.Widget)
	if !ok {
		return false
	}
	if oldW.Spec.Size != newW.Spec.Size {
		newW.Status.Ready = false
		if err := f.client.Status().Update(context.TODO(), newW); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return false
		}
	}
	return true
}

// Create sets the status from a call taking a context whose body only
// reads the spec: moved, the call in Retry.
func (f *Filter) Create(e event.CreateEvent) bool { // want Create:`^param0:Object\?$`
	w, ok := e.Object.(*v1.Widget)
	if !ok {
		return false
	}
	w.Status.Size = f.count(context.TODO(), w)
	if err := f.client.Status().Update(context.TODO(), w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return false
	}
	return true
}

func (f *Filter) count(ctx context.Context, w *v1.Widget) int { // want count:`^statusOnly\[1\]$`
	return len(w.Spec.Zones)
}

// Generic decides with exits that give the predicate's answer before its
// status is set (spark-operator's webhook-only branch): kept, naming the
// return.
func (f *Filter) Generic(e event.GenericEvent) bool { // want Generic:`^param0:Object\?$`
	w, ok := e.Object.(*v1.Widget)
	if !ok {
		return false
	}
	if !f.matches(w) {
		return false
	}
	if w.Spec.Size > 0 {
		if w.Spec.Size > 10 {
			return false
		}
		w.Status.Ready = false
		if err := f.client.Status().Update(context.TODO(), w); err != nil { // want `its decision cannot move into Retry: the return at line \d+ gives this function's result \(false\), which mutate's return cannot\)$`
			return false
		}
	}
	return true
}

func (f *Filter) matches(w *v1.Widget) bool { // want matches:`^statusOnly\[0\]$`
	return w.Namespace != ""
}

// Handlers registers map functions controller-runtime calls, with the
// informer's cached objects: no code of the module calls them.
func (h *Handler) Handlers() []handler.EventHandler {
	return []handler.EventHandler{
		handler.EnqueueRequestsFromMapFunc(h.mapWidget),
		handler.EnqueueRequestsFromMapFunc(h.mapSized),
		handler.TypedEnqueueRequestsFromMapFunc(h.mapTyped),
		handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []ctrl.Request {
			w, ok := obj.(*v1.Widget)
			if !ok {
				return nil
			}
			w.Status.Size = len(w.Spec.Zones)
			_ = h.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return nil
		}),
	}
}

// mapWidget writes the status of the object a map function is given:
// moved, its decision in Retry on a fresh read.
func (h *Handler) mapWidget(ctx context.Context, obj client.Object) []ctrl.Request {
	w, ok := obj.(*v1.Widget)
	if !ok {
		return nil
	}
	w.Status.Ready = false
	if err := h.client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return nil
	}
	return []ctrl.Request{{NamespacedName: types.NamespacedName{Namespace: w.Namespace, Name: w.Name}}}
}

// mapSized sets the status from a call taking a context whose body
// only reads the spec: moved, the call in Retry; no code of the module
// calls it.
func (h *Handler) mapSized(ctx context.Context, obj client.Object) []ctrl.Request {
	w, ok := obj.(*v1.Widget)
	if !ok {
		return nil
	}
	w.Status.Size = h.zones(ctx, w)
	_ = h.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	return nil
}

func (h *Handler) zones(ctx context.Context, w *v1.Widget) int { // want zones:`^statusOnly\[1\]$`
	return len(w.Spec.Zones)
}

// mapTyped is given the object itself, no statement takes it: kept,
// naming that no code of the module calls it, not its callers.
func (h *Handler) mapTyped(ctx context.Context, w *v1.Widget) []ctrl.Request {
	w.Status.Ready = true
	_ = h.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is the parameter w of Handler.mapTyped at line \d+, a copy the model cannot show fresh \(no code of the module calls Handler.mapTyped: it is passed to handler.TypedEnqueueRequestsFromMapFunc at line \d+, .*\): make its patcher with FetchWidgetStatusPatcher\(ctx, h.client, client.ObjectKeyFromObject\(w\)\), which reads it fresh, and Flush it here\)$`
	return nil
}
