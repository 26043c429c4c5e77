package reset

import (
	"encoding/json"
	"hash/fnv"
	"sort"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// State is a run's state before a chosen step, as the search prunes by
// it (Hash): the last Versions versions of every object of Book
// (normalised), the queued items (as a set), the stale windows used and
// those still open, the steps left, the read floors (a restart's, what
// each informer served, what the informers before the last leader change
// were served), the write in flight and the second cache's informers
// started. Floor, Served, Carried and Windows are of Keys, the book's
// keys in SortedKeys' order; UIDs are the book's (book.Book.ServerLabels),
// which normalise the versions.
type State struct {
	Book     *book.Book
	UIDs     map[string]string
	Keys     []book.Key
	Versions int
	// Queue names the queued items, in any order.
	Queue                []string
	Stale, Left, Crashes int
	Floor, Served        []int
	Carried              []int
	Lazy                 []string
	Held                 string
	// Second is nil without a second cache.
	Second []string
	// Windows are the open windows (informers.Cache.WindowState), nil
	// when none is open.
	Windows any
}

// Hash identifies s: two schedules that reach one state, whatever the
// order they met its objects and informers in, hash equal.
func Hash(s State) uint64 {
	type obj struct {
		K string
		V []any
	}
	var objs []obj
	for _, k := range s.Keys {
		h := s.Book.History(k)
		o := obj{K: HashKey(k)}
		for i := max(0, len(h.Versions)-s.Versions); i < len(h.Versions); i++ {
			o.V = append(o.V, book.Comparable(h.Versions[i], s.UIDs))
		}
		objs = append(objs, o)
	}
	q := append([]string(nil), s.Queue...)
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
	}{objs, q, s.Stale, s.Left, s.Crashes, s.Floor, s.Served, s.Carried, s.Lazy, s.Held, s.Second})
	f := fnv.New64a()
	_, _ = f.Write(b)
	if s.Windows != nil {
		w, _ := json.Marshal(s.Windows)
		_, _ = f.Write(w)
	}
	return f.Sum64()
}

// HashKey names k in a hash.
func HashKey(k book.Key) string { return k.GVK.String() + "|" + k.NN.String() }

// SortedKeys is order sorted by HashKey: by key, not in the order first
// met, as two schedules reaching one state meet its objects (and
// informers) in different orders.
func SortedKeys(order []book.Key) []book.Key {
	out := append([]book.Key(nil), order...)
	sort.Slice(out, func(i, j int) bool { return HashKey(out[i]) < HashKey(out[j]) })
	return out
}

// DrainHash identifies the state a round of the drain ends in: each
// object's newest content in b (normalised, UIDs named by their objects)
// and the queue (its items' names, in any order). A drain reads fresh, so
// a round that ends where an earlier one ended goes on as it went from
// there.
func DrainHash(b *book.Book, queue []string) uint64 {
	type obj struct {
		K string
		V any
	}
	uids, _ := b.ServerLabels()
	var objs []obj
	for _, k := range SortedKeys(b.Keys()) {
		h := b.History(k)
		objs = append(objs, obj{K: HashKey(k), V: book.Comparable(h.Versions[h.Newest()], uids)})
	}
	q := append([]string(nil), queue...)
	sort.Strings(q)
	bs, _ := json.Marshal(struct {
		O []obj
		Q []string
	}{objs, q})
	f := fnv.New64a()
	_, _ = f.Write(bs)
	return f.Sum64()
}
