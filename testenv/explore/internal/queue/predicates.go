package queue

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
)

// An event is what a watch would deliver for k's newest version: a create
// (it was absent), a delete (it is absent now) or an update, with the
// version before. Reconciler.Predicates filter the events of the For kind,
// Reconciler.EventFilter every event the reconciler gets, as the builder's
// For(obj, WithPredicates(...)) and WithEventFilter(...) do.

// event is the versions of k's event, typed: the one before its newest
// (nil: absent, or none) and the newest (nil: absent); not ok when the
// book has no history of k.
func (r *Router) event(k book.Key) (prev, cur client.Object, ok bool) {
	h := r.Book.History(k)
	if h == nil {
		return nil, nil, false
	}
	cur = r.Typed(k, h.Versions[h.Newest()])
	if h.Newest() > 0 {
		prev = r.Typed(k, h.Versions[h.Newest()-1])
	}
	return prev, cur, true
}

// passes reports whether reconciler i's predicates let the event of k's
// newest version through; forKind says whether k is of its For kind.
func (r *Router) passes(i int, k book.Key, forKind bool) bool {
	rc := r.Reconcilers[i]
	if len(rc.EventFilter) == 0 && (!forKind || len(rc.Predicates) == 0) {
		return true
	}
	prev, cur, ok := r.event(k)
	if !ok {
		return true
	}
	preds := rc.EventFilter
	if forKind {
		preds = append(append(preds[:0:0], rc.Predicates...), rc.EventFilter...)
	}
	r.Calls.Operator(func() {
		for _, p := range preds {
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
				return
			}
		}
	})
	return ok
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
