package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

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

// workQueue is a schedule's queue of reconciles and actions, and how the
// event of an object's newest version in the book queues reconcilers: by
// For and Owns kinds and predicates, or through the watches Setup built.
type workQueue struct {
	ex     *explorer
	book   *book.Book
	server client.Client
	queue  []item
	// built are the controllers Setup built, by reconciler (nil: New's).
	built []*built
	// calls is the run's lock of the clients' calls; the operator's
	// predicates and event handlers run without it (calllock.go).
	calls *callLock
}

// queueFor queues every reconciler of k's kind for k, and every reconciler
// that owns k's kind for k's controller owner, unfiltered: a resync, or a
// new manager's first list.
func (wq *workQueue) queueFor(k book.Key) { wq.queue4(k, false) }

// queueEvent queues as queueFor does for the watch event of k's newest
// version, through the reconcilers' predicates.
func (wq *workQueue) queueEvent(k book.Key) { wq.queue4(k, true) }

func (wq *workQueue) queue4(k book.Key, filter bool) {
	for i, g := range wq.ex.setup.forKinds {
		if i < len(wq.built) && wq.built[i] != nil {
			wq.queueWatches(i, k, filter)
			continue
		}
		if g == k.GVK && (!filter || wq.passes(i, k, true)) {
			wq.enqueue(item{Rec: i, Action: -1, Key: k})
		}
		for _, owned := range wq.ex.setup.ownKinds[i] {
			if owned == k.GVK && (!filter || wq.passes(i, k, false)) {
				for _, owner := range wq.controllerOwners(k, g) {
					wq.enqueue(item{Rec: i, Action: -1, Key: owner})
				}
			}
		}
	}
}

// controllerOwners are the owners of kind owner that k's controller
// ownerReference names, in its newest version and the one before (a
// deletion, or an update that changed the owner, queues the old owner).
func (wq *workQueue) controllerOwners(k book.Key, owner schema.GroupVersionKind) []book.Key {
	h := wq.book.History(k)
	if h == nil {
		return nil
	}
	namespace := k.NN.Namespace
	if m, err := wq.server.RESTMapper().RESTMapping(owner.GroupKind(), owner.Version); err == nil && m.Scope.Name() == meta.RESTScopeNameRoot {
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

func (wq *workQueue) enqueue(it item) {
	for _, q := range wq.queue {
		if q == it {
			return
		}
	}
	wq.queue = append(wq.queue, it)
}

func (wq *workQueue) dequeue(it item) {
	for i, q := range wq.queue {
		if q == it {
			wq.queue = append(wq.queue[:i:i], wq.queue[i+1:]...)
			return
		}
	}
}

// queueWatches queues what reconciler i's watches queue for the event of
// k's newest version: through the predicates when filter, else as a resync
// (an update to the same version, unfiltered).
func (wq *workQueue) queueWatches(i int, k book.Key, filter bool) {
	h := wq.book.History(k)
	if h == nil || i >= len(wq.built) {
		return
	}
	cur := wq.typed(k, h.Versions[h.Newest()])
	var prev client.Object
	if h.Newest() > 0 {
		prev = wq.typed(k, h.Versions[h.Newest()-1])
	}
	if !filter {
		if cur == nil {
			return
		}
		prev = cur
	}
	for _, w := range wq.built[i].Watches {
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
		wq.calls.operator(func() {
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
			wq.enqueue(item{Rec: i, Action: -1, Key: book.Key{GVK: wq.ex.setup.forKinds[i], NN: req.NamespacedName}})
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
