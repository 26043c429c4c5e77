package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// stateHash identifies the state before a chosen step (reset.State,
// reset.Hash): the book's objects, the queue, the cache's floors and
// windows, the steps left, the write in flight and the second cache's
// informers started.
func (r *run) stateHash(left int) uint64 {
	uids, _ := r.book.ServerLabels()
	keys := reset.SortedKeys(r.book.Keys())
	v := &r.cache.Model.View
	s := reset.State{Book: r.book, UIDs: uids, Keys: keys, Versions: r.ex.o.Versions, Queue: r.queueIDs(), Stale: r.cache.Stale, Left: left, Crashes: r.trace.crashes,
		Floor: r.cache.Model.Floors(keys), Served: v.State(keys), Carried: v.Past(keys), Lazy: v.Lazy(), Held: r.held.in.State(), Second: r.proc.Started()}
	if open := r.cache.WindowState(keys, func(c map[string]any) any { return book.Comparable(c, uids) }); len(open) > 0 {
		s.Windows = open
	}
	return reset.Hash(s)
}

// queueIDs names the queued items, in the queue's order.
func (r *run) queueIDs() []string {
	var q []string
	for _, it := range r.queue.Items {
		q = append(q, r.ex.setup.itemID(it))
	}
	return q
}

// drainCap bounds a drain when Options.MaxSteps is not set: past it, a
// drain whose every round writes is taken for one that never stops.
const drainCap = 1000

// drainBound is how many steps a drain may run.
func (o *Options) drainBound() int {
	if o.MaxSteps > 0 {
		return o.MaxSteps
	}
	return drainCap
}

// drainBoundName says where drainBound comes from, for a report.
func (o *Options) drainBoundName() string {
	if o.MaxSteps > 0 {
		return "Options.MaxSteps"
	}
	return "the default bound, with Options.MaxSteps unset"
}

// drainState identifies the state a round of the drain ends in
// (reset.DrainHash).
func (r *run) drainState() uint64 { return reset.DrainHash(r.book, r.queueIDs()) }
