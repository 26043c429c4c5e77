package crinternals

import (
	"context"
	"reflect"
	"strings"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A typed watch, source.Kind[*T] (controller-runtime's generic sources),
// holds a handler.TypedEventHandler[*T, reconcile.Request] and
// predicate.TypedPredicate[*T]s, which take events of *T, not of
// client.Object. typedHandler and typedPredicate call them with the
// event of the object given, as *T, through reflect: one adapter for
// every T. An object that is not a *T (none the caller gives: it converts
// each version to the scheme's Go type) reaches neither.

// handlerOf is h as a handler.EventHandler: itself, or a typed handler
// adapted; false when it is neither.
func handlerOf(h any) (handler.EventHandler, bool) {
	if eh, ok := h.(handler.EventHandler); ok {
		return eh, true
	}
	v := reflect.ValueOf(h)
	if !v.IsValid() {
		return nil, false
	}
	for _, m := range []string{"Create", "Update", "Delete", "Generic"} {
		if f := v.MethodByName(m); !f.IsValid() || f.Type().NumIn() != 3 {
			return nil, false
		}
	}
	return typedHandler{v}, true
}

// forObject reports that h queues the object itself: an
// EnqueueRequestForObject, or a typed one of any *T.
func forObject(h any) bool {
	if _, ok := h.(*handler.EnqueueRequestForObject); ok {
		return true
	}
	t := reflect.TypeOf(h)
	if t == nil || t.Kind() != reflect.Pointer {
		return false
	}
	t = t.Elem()
	return t.PkgPath() == reflect.TypeFor[handler.EnqueueRequestForObject]().PkgPath() && strings.HasPrefix(t.Name(), "TypedEnqueueRequestForObject[")
}

// predicatesOf is ps as predicate.Predicates: themselves, or each typed
// one adapted; false when an element is neither.
func predicatesOf(ps reflect.Value) ([]predicate.Predicate, bool) {
	if !ps.IsValid() {
		return nil, true
	}
	if out, ok := ps.Interface().([]predicate.Predicate); ok {
		return out, true
	}
	if ps.Kind() != reflect.Slice {
		return nil, false
	}
	out := make([]predicate.Predicate, 0, ps.Len())
	for i := range ps.Len() {
		p := ps.Index(i)
		for _, m := range []string{"Create", "Update", "Delete", "Generic"} {
			if f := p.MethodByName(m); !f.IsValid() || f.Type().NumIn() != 1 {
				return nil, false
			}
		}
		out = append(out, typedPredicate{p})
	}
	return out, true
}

// objects are an event's objects, by the field of the typed event.
type objects map[string]client.Object

// typedEvent builds the typed event that method m takes as its argument
// in, from objs; false when an object is not of the event's type.
func typedEvent(m reflect.Value, in int, objs objects, unknown bool) (reflect.Value, bool) {
	ev := reflect.New(m.Type().In(in)).Elem()
	for name, o := range objs {
		f := ev.FieldByName(name)
		if !f.IsValid() {
			return ev, false
		}
		if o == nil {
			continue
		}
		v := reflect.ValueOf(o)
		if !v.Type().AssignableTo(f.Type()) {
			return ev, false
		}
		f.Set(v)
	}
	if f := ev.FieldByName("DeleteStateUnknown"); f.IsValid() && f.Kind() == reflect.Bool {
		f.SetBool(unknown)
	}
	return ev, true
}

// typedHandler is a handler.TypedEventHandler[*T, reconcile.Request].
type typedHandler struct{ h reflect.Value }

func (a typedHandler) call(method string, ctx context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request], objs objects, unknown bool) {
	m := a.h.MethodByName(method)
	ev, ok := typedEvent(m, 1, objs, unknown)
	if !ok || !reflect.TypeOf(q).AssignableTo(m.Type().In(2)) {
		return
	}
	m.Call([]reflect.Value{reflect.ValueOf(ctx), ev, reflect.ValueOf(q)})
}

func (a typedHandler) Create(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	a.call("Create", ctx, q, objects{"Object": e.Object}, false)
}

func (a typedHandler) Update(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	a.call("Update", ctx, q, objects{"ObjectOld": e.ObjectOld, "ObjectNew": e.ObjectNew}, false)
}

func (a typedHandler) Delete(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	a.call("Delete", ctx, q, objects{"Object": e.Object}, e.DeleteStateUnknown)
}

func (a typedHandler) Generic(ctx context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	a.call("Generic", ctx, q, objects{"Object": e.Object}, false)
}

// typedPredicate is a predicate.TypedPredicate[*T]: an event whose
// object is not a *T does not pass.
type typedPredicate struct{ p reflect.Value }

func (a typedPredicate) call(method string, objs objects, unknown bool) bool {
	m := a.p.MethodByName(method)
	ev, ok := typedEvent(m, 0, objs, unknown)
	if !ok {
		return false
	}
	out := m.Call([]reflect.Value{ev})
	return len(out) == 1 && out[0].Kind() == reflect.Bool && out[0].Bool()
}

func (a typedPredicate) Create(e event.CreateEvent) bool {
	return a.call("Create", objects{"Object": e.Object}, false)
}

func (a typedPredicate) Update(e event.UpdateEvent) bool {
	return a.call("Update", objects{"ObjectOld": e.ObjectOld, "ObjectNew": e.ObjectNew}, false)
}

func (a typedPredicate) Delete(e event.DeleteEvent) bool {
	return a.call("Delete", objects{"Object": e.Object}, e.DeleteStateUnknown)
}

func (a typedPredicate) Generic(e event.GenericEvent) bool {
	return a.call("Generic", objects{"Object": e.Object}, false)
}
