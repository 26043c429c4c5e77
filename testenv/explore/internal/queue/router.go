package queue

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"

	"context"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Reconciler is what the router reads of one of the scenario's
// reconcilers: its For kind, its Owns kinds, and the predicates of its
// For kind (Predicates) and of every event it gets (EventFilter).
type Reconciler struct {
	For                     schema.GroupVersionKind
	Owns                    []schema.GroupVersionKind
	Predicates, EventFilter []predicate.Predicate
}

// Router is how the event of an object's newest version in Book queues
// the reconcilers: by For and Owns kinds and predicates, or through the
// watches Setup built.
type Router struct {
	Book *book.Book
	// Server gives the kinds' scopes (RESTMapper) and Go types (Scheme).
	Server client.Client
	// Reconcilers are the scenario's, by index (schedule.Item.Rec).
	Reconcilers []Reconciler
	// Calls is the run's lock of the clients' calls; the operator's
	// predicates and event handlers run without it.
	Calls *Calls
}

// Route queues, through add, the reconciles the event of k's newest
// version queues, in order (the queue drops repeats): every reconciler of
// k's kind for k, and every reconciler that owns k's kind for k's
// controller owner; through the predicates when filter, else unfiltered
// (a resync, or a new manager's first list). built are the controllers
// Setup built, by reconciler (nil: New's), whose watches queue them.
func (r *Router) Route(k book.Key, built []*recmgr.Controller, filter bool, add func(schedule.Item)) {
	r.route(k, built, filter, false, add)
}

// RouteListed queues, through add, what a new process's first list of
// k's newest version queues: through the watches Setup built, a create
// event of it, through their predicates and handlers, as an informer's
// initial list gives each handler (the operator's predicates and handlers
// may keep what they see: kueue's fill its queue manager and cache); for
// the other reconcilers, as Route unfiltered.
func (r *Router) RouteListed(k book.Key, built []*recmgr.Controller, add func(schedule.Item)) {
	r.route(k, built, false, true, add)
}

func (r *Router) route(k book.Key, built []*recmgr.Controller, filter, listed bool, add func(schedule.Item)) {
	for i, rc := range r.Reconcilers {
		if i < len(built) && built[i] != nil {
			r.watched(i, built[i], k, filter, listed, add)
			continue
		}
		if rc.For == k.GVK && (!filter || r.passes(i, k, true)) {
			add(schedule.Item{Rec: i, Action: -1, Key: k})
		}
		for _, owned := range rc.Owns {
			if owned == k.GVK && (!filter || r.passes(i, k, false)) {
				for _, owner := range r.ControllerOwners(k, rc.For) {
					add(schedule.Item{Rec: i, Action: -1, Key: owner})
				}
			}
		}
	}
}

// ControllerOwners are the owners of kind owner that k's controller
// ownerReference names, in its newest version and the one before (a
// deletion, or an update that changed the owner, queues the old owner).
func (r *Router) ControllerOwners(k book.Key, owner schema.GroupVersionKind) []book.Key {
	h := r.Book.History(k)
	if h == nil {
		return nil
	}
	namespace := k.NN.Namespace
	if m, err := r.Server.RESTMapper().RESTMapping(owner.GroupKind(), owner.Version); err == nil && m.Scope.Name() == meta.RESTScopeNameRoot {
		namespace = ""
	}
	var out []book.Key
	for v := h.Newest(); v >= 0 && v >= h.Newest()-1; v-- {
		if h.Versions[v] == nil {
			continue
		}
		u := unstructured.Unstructured{Object: h.Versions[v]}
		for _, ref := range u.GetOwnerReferences() {
			gv, err := schema.ParseGroupVersion(ref.APIVersion)
			if err != nil || ref.Controller == nil || !*ref.Controller || gv.Group != owner.Group || ref.Kind != owner.Kind {
				continue
			}
			key := book.Key{GVK: owner, NN: types.NamespacedName{Namespace: namespace, Name: ref.Name}}
			if !slices.Contains(out, key) {
				out = append(out, key)
			}
		}
	}
	return out
}

// watched queues, through add, what reconciler i's watches (of the
// controller c Setup built) queue for the event of k's newest version:
// through the predicates when filter, else as a resync (an update to the
// same version, unfiltered); listed: a create of it, through the
// predicates (RouteListed).
func (r *Router) watched(i int, c *recmgr.Controller, k book.Key, filter, listed bool, add func(schedule.Item)) {
	prev, cur, ok := r.event(k)
	if !ok {
		return
	}
	if listed {
		if cur == nil {
			return
		}
		prev, filter = nil, true
	} else if !filter {
		if cur == nil {
			return
		}
		prev = cur
	}
	for _, w := range c.Watches {
		if w.GVK != k.GVK {
			continue
		}
		q := &capture{}
		ctx := context.Background()
		pass := func(f func(p predicate.Predicate) bool) bool {
			for _, p := range w.Preds {
				if filter && !f(p) {
					return false
				}
			}
			return true
		}
		r.Calls.Operator(func() {
			switch {
			case prev == nil && cur == nil:
			case prev == nil:
				e := event.CreateEvent{Object: cur}
				if pass(func(p predicate.Predicate) bool { return p.Create(e) }) {
					w.Handler.Create(ctx, e, q)
				}
			case cur == nil:
				e := event.DeleteEvent{Object: prev}
				if pass(func(p predicate.Predicate) bool { return p.Delete(e) }) {
					w.Handler.Delete(ctx, e, q)
				}
			default:
				e := event.UpdateEvent{ObjectOld: prev, ObjectNew: cur}
				if pass(func(p predicate.Predicate) bool { return p.Update(e) }) {
					w.Handler.Update(ctx, e, q)
				}
			}
		})
		for _, req := range q.added {
			add(schedule.Item{Rec: i, Action: -1, Key: book.Key{GVK: r.Reconcilers[i].For, NN: req.NamespacedName}})
		}
	}
}

// capture is the queue a handler adds requests to.
type capture struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	added []reconcile.Request
}

func (c *capture) Add(req reconcile.Request)                       { c.added = append(c.added, req) }
func (c *capture) AddRateLimited(req reconcile.Request)            { c.Add(req) }
func (c *capture) AddAfter(req reconcile.Request, _ time.Duration) { c.Add(req) }
