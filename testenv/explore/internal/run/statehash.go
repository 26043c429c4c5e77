package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// StateHash identifies the state before a chosen step (reset.State,
// reset.Hash): the book's objects, the queue, the cache's floors and
// windows, the steps left, the write in flight and the second cache's
// informers started.
func (r *Run) StateHash(left int) uint64 {
	uids, _ := r.Book.ServerLabels()
	keys := reset.SortedKeys(r.Book.Keys())
	v := &r.Cache.Model.View
	s := reset.State{Book: r.Book, UIDs: uids, Keys: keys, Versions: optionsOf(r.ex).Versions, Queue: r.queueIDs(), Stale: r.Cache.Stale, Left: left, Crashes: r.Trace.Crashes,
		Floor: r.Cache.Model.Floors(keys), Served: v.State(keys), Carried: v.Past(keys), Lazy: v.Lazy(), Held: r.Held.In.State(), Second: r.Proc.Started()}
	if open := r.Cache.WindowState(keys, func(c map[string]any) any { return book.Comparable(c, uids) }); len(open) > 0 {
		s.Windows = open
	}
	return reset.Hash(s)
}

// queueIDs names the queued items, in the queue's order.
func (r *Run) queueIDs() []string {
	var q []string
	for _, it := range r.Queue.Items {
		q = append(q, r.ex.ItemID(it))
	}
	return q
}

// drainState identifies the state a round of the drain ends in
// (reset.DrainHash).
func (r *Run) drainState() uint64 { return reset.DrainHash(r.Book, r.queueIDs()) }
