package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"encoding/json"
	"hash/fnv"
	"sort"
)

// stateHash identifies the state before a chosen step: the last
// Options.Versions versions of every object (normalised), the queued items
// (as a set), the stale windows used and those still open (window.go),
// the steps left, the read floors (a restart's, what each informer
// served, what the informers before the last leader change were served),
// the write in flight and the second cache's informers started.
func (r *run) stateHash(left int) uint64 {
	type obj struct {
		K string
		V []any
	}
	var objs []obj
	uids, _ := r.book.ServerLabels()
	// By key, not in the order first met: two schedules reaching one state
	// meet its objects (and informers) in different orders.
	keys := sortedKeys(r.book.Keys())
	for _, k := range keys {
		h := r.book.History(k)
		o := obj{K: hashKey(k)}
		for i := max(0, len(h.Versions)-r.ex.o.Versions); i < len(h.Versions); i++ {
			o.V = append(o.V, book.Comparable(h.Versions[i], uids))
		}
		objs = append(objs, o)
	}
	var q []string
	for _, it := range r.queue.queue {
		q = append(q, r.ex.setup.itemID(it))
	}
	sort.Strings(q) // the order only matters to the drain
	b, _ := json.Marshal(struct {
		O                    []obj
		Q                    []string
		Stale, Left, Crashes int
		Floor, Served        []int
		Carried              []int
		Lazy                 []string
		Held                 string
		Second               []string `json:",omitempty"` // nil without a second cache: other hashes unchanged
	}{objs, q, r.cache.Stale, left, r.trace.crashes, r.cache.Model.Floors(keys), r.cache.Model.View.State(keys), r.cache.Model.View.Past(keys), r.cache.Model.View.Lazy(), r.held.in.State(), r.proc.Started()})
	f := fnv.New64a()
	_, _ = f.Write(b)
	if open := r.cache.WindowState(keys, func(c map[string]any) any { return book.Comparable(c, uids) }); len(open) > 0 {
		w, _ := json.Marshal(open)
		_, _ = f.Write(w)
	}
	return f.Sum64()
}

// hashKey names k in the state hash.
func hashKey(k book.Key) string { return k.GVK.String() + "|" + k.NN.String() }

// sortedKeys is order sorted by hashKey.
func sortedKeys(order []book.Key) []book.Key {
	out := append([]book.Key(nil), order...)
	sort.Slice(out, func(i, j int) bool { return hashKey(out[i]) < hashKey(out[j]) })
	return out
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

// drainState identifies the state a round of the drain ends in: each
// object's newest content (normalised, UIDs named by their objects) and
// the queue. A drain reads fresh, so a round that ends where an earlier
// one ended goes on as it went from there.
func (r *run) drainState() uint64 {
	type obj struct {
		K string
		V any
	}
	uids, _ := r.book.ServerLabels()
	var objs []obj
	for _, k := range sortedKeys(r.book.Keys()) {
		h := r.book.History(k)
		objs = append(objs, obj{K: hashKey(k), V: book.Comparable(h.Versions[h.Newest()], uids)})
	}
	var q []string
	for _, it := range r.queue.queue {
		q = append(q, r.ex.setup.itemID(it))
	}
	sort.Strings(q)
	b, _ := json.Marshal(struct {
		O []obj
		Q []string
	}{objs, q})
	f := fnv.New64a()
	_, _ = f.Write(b)
	return f.Sum64()
}
