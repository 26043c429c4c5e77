package queue

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// Work is a run's queue of reconciles and actions, in order; the event of
// an object's newest version in the book queues reconcilers by For and
// Owns kinds and predicates, or through the watches Setup built (Router).
// It drops repeats; the run chooses which item runs next. Its zero value,
// with NewRouter set, is empty.
type Work struct {
	// Items are the queued reconciles and actions, in the order queued.
	Items []schedule.Item
	// Built are the controllers Setup built, by reconciler (nil: New's).
	Built []*recmgr.Controller
	// NewRouter makes the Router at the first event: the reconcilers'
	// kinds are known only once the run has set up.
	NewRouter func() *Router
	route     *Router
}

// Router is the queue's Router, made by NewRouter at its first use.
func (w *Work) Router() *Router {
	if w.route == nil {
		w.route = w.NewRouter()
	}
	return w.route
}

// QueueResync queues what an informer's resync of k's newest version
// queues (Router.RouteResync): the drain's rounds, through the
// predicates.
func (w *Work) QueueResync(k book.Key) { w.Router().RouteResync(k, w.Built, w.Enqueue) }

// QueueListed queues what a new process's first list of k queues
// (Router.RouteListed): after a crash or a leader change.
func (w *Work) QueueListed(k book.Key) { w.Router().RouteListed(k, w.Built, w.Enqueue) }

// QueueEvent queues what the watch event of k's newest version queues
// (Router.Route): every reconciler of k's kind for k, and every
// reconciler that owns k's kind for k's controller owner, through the
// predicates.
func (w *Work) QueueEvent(k book.Key) { w.Router().Route(k, w.Built, w.Enqueue) }

// Enqueue queues it last, unless it is queued already.
func (w *Work) Enqueue(it schedule.Item) {
	for _, q := range w.Items {
		if q == it {
			return
		}
	}
	w.Items = append(w.Items, it)
}

// Dequeue drops it from the queue, if queued.
func (w *Work) Dequeue(it schedule.Item) {
	for i, q := range w.Items {
		if q == it {
			w.Items = append(w.Items[:i:i], w.Items[i+1:]...)
			return
		}
	}
}
