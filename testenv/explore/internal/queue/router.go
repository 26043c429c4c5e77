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

// An event is how a route delivers k's newest version to the watches,
// each through its predicates and handler, as controller-runtime's
// source.Kind does (its EventHandler runs the predicates for every
// informer callback, a resync's included).
type how int

const (
	// watchEvent is the watch event of k's newest version: a create (it
	// was absent), a delete (it is absent now) or an update from the
	// version before.
	watchEvent how = iota
	// resync is an informer's resync of k's newest version: an update
	// from it to itself (client-go's OnUpdate(obj, obj), every
	// SyncPeriod), nothing for an absent object.
	resync
	// listed is a new process's first list: a create of k's newest
	// version, nothing for an absent object.
	listed
)

// Route queues, through add, the reconciles the watch event of k's
// newest version queues, in order (the queue drops repeats): every
// reconciler of k's kind for k, and every reconciler that owns k's kind
// for k's controller owner, through their predicates. built are the
// controllers Setup built, by reconciler (nil: New's), whose watches
// queue them.
func (r *Router) Route(k book.Key, built []*recmgr.Controller, add func(schedule.Item)) {
	r.route(k, built, watchEvent, add)
}

// RouteResync queues, through add, what an informer's resync of k's
// newest version queues: an update from it to itself, through the
// predicates (GenerationChangedPredicate drops it).
func (r *Router) RouteResync(k book.Key, built []*recmgr.Controller, add func(schedule.Item)) {
	r.route(k, built, resync, add)
}

// RouteListed queues, through add, what a new process's first list of
// k's newest version queues: a create event of it, through the
// predicates and handlers, as an informer's initial list gives each
// handler (the operator's predicates and handlers may keep what they
// see: kueue's fill its queue manager and cache).
func (r *Router) RouteListed(k book.Key, built []*recmgr.Controller, add func(schedule.Item)) {
	r.route(k, built, listed, add)
}

func (r *Router) route(k book.Key, built []*recmgr.Controller, e how, add func(schedule.Item)) {
	for i, rc := range r.Reconcilers {
		if i < len(built) && built[i] != nil {
			r.watched(i, built[i], k, e, add)
			continue
		}
		if rc.For == k.GVK && r.passes(i, k, true, e) {
			add(schedule.Item{Rec: i, Action: -1, Key: k})
		}
		for _, owned := range rc.Owns {
			if owned == k.GVK && r.passes(i, k, false, e) {
				for _, owner := range r.controllerOwners(k, rc.For, e == watchEvent) {
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
	return r.controllerOwners(k, owner, true)
}

// controllerOwners are ControllerOwners, of the newest version alone
// unless before.
func (r *Router) controllerOwners(k book.Key, owner schema.GroupVersionKind, before bool) []book.Key {
	h := r.Book.History(k)
	if h == nil {
		return nil
	}
	namespace := k.NN.Namespace
	if m, err := r.Server.RESTMapper().RESTMapping(owner.GroupKind(), owner.Version); err == nil && m.Scope.Name() == meta.RESTScopeNameRoot {
		namespace = ""
	}
	var out []book.Key
	oldest := h.Newest()
	if before {
		oldest--
	}
	for v := h.Newest(); v >= 0 && v >= oldest; v-- {
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
// controller c Setup built) queue for the event e of k's newest version,
// through their predicates and handlers.
func (r *Router) watched(i int, c *recmgr.Controller, k book.Key, e how, add func(schedule.Item)) {
	prev, cur, ok := r.event(k, e)
	if !ok {
		return
	}
	for _, w := range c.Watches {
		if w.GVK != k.GVK {
			continue
		}
		q := &capture{}
		ctx := context.Background()
		r.Calls.Operator(func() {
			if ok := deliver(w.Preds, prev, cur); ok {
				handle(ctx, w.Handler, prev, cur, q)
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
