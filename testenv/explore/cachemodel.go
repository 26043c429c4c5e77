package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// cacheModel is how the process's cache serves the reconcilers' cached
// reads: the versions it may still serve (cache, floor), the stale reads
// chosen so far, Lists lagged to a point of the book (listlag.go) and the
// field indexes Setup registered (index.go). Reads of uncached kinds go to
// the server.
type cacheModel struct {
	ex     *explorer
	book   *book.Book
	trace  *trace
	server client.Client
	// cache is what each of this process's informers served (informer.go).
	cache cacheView
	// floor is, per object, the oldest version the cache can serve since
	// a cold restart.
	floor map[book.Key]int
	// indexes are the field indexes Setup registered (index.go).
	indexes fieldIndexes
	// indexed are the informers of those indexes, which a manager starts
	// with its cache, before it is elected (informer.go).
	indexed map[informerKey]bool
	// stale counts the stale windows opened in this schedule; windows
	// are those open in this process, by informer (window.go).
	stale   int
	windows map[informerKey]*openWindow
	// listCut marks the list points of the next chooseLag cut short by
	// Options.Versions (listPoints).
	listCut bool
	// lists are the kinds listed with no write since (listfresh.go).
	lists listsSeen
	// items are the versions converted to typed list items (listlag.go).
	items typedItems
}

// chooseLag picks how many versions behind the newest a cached read is,
// of n lags (0 to n-1); stay is the lag at which the open window
// of the read's informer serves it (window.go), -1 when none is open.
func (cm *cacheModel) chooseLag(n, stay int) int {
	s := cm.trace.cur
	if s == nil {
		return 0
	}
	lag, listCut := 0, cm.listCut
	cm.listCut = false
	switch {
	case s.plan != nil:
		if i := len(s.lags); i < len(s.plan) {
			lag = min(s.plan[i], n-1)
		}
	case cm.trace.drain:
	case stay == 0: // the window's point has the newest version
	case stay > 0:
		lag = cm.inWindow(n, stay)
	case cm.stale < cm.ex.o.StaleReads:
		// The stalest version first: most bugs need one.
		w := min(n, cm.ex.o.Versions)
		if f := cm.trace.ch.faults; f != nil {
			lag = f.lag(cm.trace.ch, w)
		} else {
			lag = w - 1 - cm.trace.ch.Choose(w)
		}
		if n > w || listCut {
			cm.trace.noteCut(boundVersions)
		}
	case n > 1:
		cm.trace.noteCut(boundStaleReads) // a stale window was there to open
	}
	s.lags = append(s.lags, lag)
	return lag
}

// uncachedRead reports a read of kind gvk into obj (an object or a list)
// through the reconcilers' client that a manager's client sends to the
// server, never its cache: a kind of Options.Uncached or of the operator's
// Scenario.Manager.Client.Cache.DisableFor, or an unstructured object
// unless Client.Cache.Unstructured says to cache those, as
// controller-runtime's client decides.
func (cm *cacheModel) uncachedRead(gvk schema.GroupVersionKind, obj runtime.Object) bool {
	if cm.ex.setup.uncached[gvk] {
		return true
	}
	_, unstructured := obj.(runtime.Unstructured)
	return unstructured && !cm.ex.setup.cacheUnstructured
}

// startInformer starts the informer that serves a cached read of gvk
// into obj before the read (informer.go): lazily, unless a controller
// watches the kind in that representation.
func (cm *cacheModel) startInformer(gvk schema.GroupVersionKind, obj runtime.Object) {
	rep := repOf(obj)
	cm.cache.start(gvk, rep, cm.ex == nil || cm.ex.setup.watched(gvk, rep))
}

// newestList serves a List with the server's newest items.
func (cm *cacheModel) newestList(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) error {
	keys, err := cm.fetchList(ctx, c, list, api, opts)
	if err != nil {
		return err
	}
	cm.recordNewest(keys, list, api)
	return nil
}

// fetchList lists from the server (a cached List with a field selector
// through the indexes) and observes every item the book does not hold at
// the version listed: all are known after.
func (cm *cacheModel) fetchList(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) ([]book.Key, error) {
	if cm.lists != nil {
		c = listFresh{WithWatch: c, seen: cm.lists} // listfresh.go
	}
	handled := false
	if !api {
		var err error
		if handled, err = cm.indexedList(ctx, c, list, opts); err != nil {
			return nil, err
		}
	}
	if !handled {
		if err := c.List(ctx, list, opts...); err != nil {
			return nil, err
		}
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("explore: %T: %w", list, err)
	}
	var keys []book.Key
	for _, it := range items {
		o, ok := it.(client.Object)
		if !ok {
			continue
		}
		k, err := cm.book.KeyOf(o, client.ObjectKeyFromObject(o))
		if err != nil {
			return nil, err
		}
		if !cm.book.Holds(k, o) {
			if _, _, err := cm.book.Observe(ctx, k); err != nil {
				return nil, err
			}
		}
		keys = append(keys, k)
	}
	if err := cm.observeLeftOut(ctx, list, opts, keys); err != nil {
		return nil, err
	}
	return keys, nil
}

// recordNewest records the items of a list served newest as read; a
// cached list's, as served by the informers, which then hold them.
func (cm *cacheModel) recordNewest(keys []book.Key, list client.ObjectList, api bool) {
	for _, k := range keys {
		h := cm.book.History(k)
		uncached := !api && cm.uncachedRead(k.GVK, list)
		if !api && !uncached {
			cm.cache.saw(k, repOf(list), h.Newest())
		}
		if cm.trace.cur != nil {
			cm.trace.cur.step.Reads = append(cm.trace.cur.step.Reads, Read{Object: k.String(), Version: h.Newest() + 1, Newest: h.Newest() + 1, API: api, Uncached: uncached, List: true,
				Informer: informerName(api || uncached, repOf(list))})
			cm.trace.cur.seen[k] = h.Newest()
		}
	}
}

// floors lists the cold-cache floors of keys, in that order, for the
// state hash.
func (cm *cacheModel) floors(keys []book.Key) []int {
	if len(cm.floor) == 0 {
		return nil
	}
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = cm.floor[k]
	}
	return out
}
