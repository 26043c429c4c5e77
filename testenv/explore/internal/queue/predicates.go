package queue

import (
	"context"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// An event is what a watch would deliver for k's newest version (how):
// a create, a delete or an update, with the version before; a resync's
// update from the newest version to itself; a first list's create.
// Reconciler.Predicates filter the events of the For kind,
// Reconciler.EventFilter every event the reconciler gets, as the
// builder's For(obj, WithPredicates(...)) and WithEventFilter(...) do.

// event is the versions of k's event e, typed: the one before (nil:
// absent, or none) and the newest (nil: absent); not ok when the book has
// no history of k, or e is a resync or a first list of an absent object.
func (r *Router) event(k book.Key, e how) (prev, cur client.Object, ok bool) {
	h := r.Book.History(k)
	if h == nil {
		return nil, nil, false
	}
	cur = r.Typed(k, h.Versions[h.Newest()])
	switch e {
	case resync:
		return cur, cur, cur != nil
	case listed:
		return nil, cur, cur != nil
	}
	if h.Newest() > 0 {
		prev = r.Typed(k, h.Versions[h.Newest()-1])
	}
	return prev, cur, true
}

// passes reports whether reconciler i's predicates let the event e of
// k's newest version through; forKind says whether k is of its For kind.
// A resync or a first list of an absent object is no event.
func (r *Router) passes(i int, k book.Key, forKind bool, e how) bool {
	rc := r.Reconcilers[i]
	prev, cur, ok := r.event(k, e)
	if !ok {
		return e == watchEvent
	}
	preds := rc.EventFilter
	if forKind {
		preds = append(append(preds[:0:0], rc.Predicates...), rc.EventFilter...)
	}
	if len(preds) == 0 {
		return true
	}
	r.Calls.Operator(func() { ok = deliver(preds, prev, cur) })
	return ok
}

// deliver reports whether preds all let the event from prev to cur
// through (prev nil: a create; cur nil: a delete; both: no predicate is
// asked).
func deliver(preds []predicate.Predicate, prev, cur client.Object) bool {
	for _, p := range preds {
		ok := true
		switch {
		case prev == nil && cur == nil:
		case prev == nil:
			ok = p.Create(event.CreateEvent{Object: cur})
		case cur == nil:
			ok = p.Delete(event.DeleteEvent{Object: prev})
		default:
			ok = p.Update(event.UpdateEvent{ObjectOld: prev, ObjectNew: cur})
		}
		if !ok {
			return false
		}
	}
	return true
}

// handle hands the event from prev to cur to h, which queues on q.
func handle(ctx context.Context, h handler.EventHandler, prev, cur client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	switch {
	case prev == nil && cur == nil:
	case prev == nil:
		h.Create(ctx, event.CreateEvent{Object: cur}, q)
	case cur == nil:
		h.Delete(ctx, event.DeleteEvent{Object: prev}, q)
	default:
		h.Update(ctx, event.UpdateEvent{ObjectOld: prev, ObjectNew: cur}, q)
	}
}

// Typed converts a version of k to the scheme's Go type for k's kind (a
// predicate may assert it), or to unstructured; nil for absent.
func (r *Router) Typed(k book.Key, content map[string]any) client.Object {
	if content == nil {
		return nil
	}
	content = runtime.DeepCopyJSON(content)
	if o, err := r.Server.Scheme().New(k.GVK); err == nil {
		if obj, ok := o.(client.Object); ok && runtime.DefaultUnstructuredConverter.FromUnstructured(content, obj) == nil {
			obj.GetObjectKind().SetGroupVersionKind(k.GVK)
			return obj
		}
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(k.GVK)
	return u
}
