package explore

import (
	"encoding/json"
	"hash/fnv"
	"sort"
)

// stateHash identifies the state before a chosen step: the last
// Options.Versions versions of every object (normalised), the queued items
// (as a set), the stale reads used, the steps left and the write in flight.
func (r *run) stateHash(left int) uint64 {
	type obj struct {
		K string
		V []any
	}
	var objs []obj
	uids, _ := r.serverLabels()
	for _, k := range r.order {
		h := r.hist[k]
		o := obj{K: k.gvk.String() + "|" + k.nn.String()}
		for i := max(0, len(h.versions)-r.ex.o.Versions); i < len(h.versions); i++ {
			o.V = append(o.V, mapUIDs(normalized(h.versions[i]), uids))
		}
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].K < objs[j].K })
	var q []string
	for _, it := range r.queue {
		q = append(q, r.ex.itemID(it))
	}
	sort.Strings(q) // the order only matters to the drain
	b, _ := json.Marshal(struct {
		O                    []obj
		Q                    []string
		Stale, Left, Crashes int
		Floor, Served        []int
		Held                 string
	}{objs, q, r.stale, left, r.crashes, r.floors(), r.cache.state(r.order), r.heldState()})
	f := fnv.New64a()
	_, _ = f.Write(b)
	return f.Sum64()
}
