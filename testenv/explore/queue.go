package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/queue"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// workQueue is a schedule's queue of reconciles and actions; the event of
// an object's newest version in the book queues reconcilers by For and
// Owns kinds and predicates, or through the watches Setup built
// (queue.Router).
type workQueue struct {
	ex     *explorer
	book   *book.Book
	server client.Client
	queue  []item
	// built are the controllers Setup built, by reconciler (nil: New's).
	built []*built
	// calls is the run's lock of the clients' calls; the operator's
	// predicates and event handlers run without it (queue.Calls).
	calls *callLock
	// route routes the events; made at the first event.
	route *queue.Router
}

// router is the queue's queue.Router, on the scenario's reconcilers.
func (wq *workQueue) router() *queue.Router {
	if wq.route == nil {
		st := &wq.ex.setup
		rcs := make([]queue.Reconciler, len(st.forKinds))
		for i := range rcs {
			rc := st.s.Reconcilers[i]
			rcs[i] = queue.Reconciler{For: st.forKinds[i], Owns: st.ownKinds[i], Predicates: rc.Predicates, EventFilter: rc.EventFilter}
		}
		wq.route = &queue.Router{Book: wq.book, Server: wq.server, Reconcilers: rcs, Calls: &wq.calls.Calls}
	}
	return wq.route
}

// queueFor queues every reconciler of k's kind for k, and every reconciler
// that owns k's kind for k's controller owner, unfiltered: a resync, or a
// new manager's first list.
func (wq *workQueue) queueFor(k book.Key) { wq.router().Route(k, wq.built, false, wq.enqueue) }

// queueEvent queues as queueFor does for the watch event of k's newest
// version, through the reconcilers' predicates.
func (wq *workQueue) queueEvent(k book.Key) { wq.router().Route(k, wq.built, true, wq.enqueue) }

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
