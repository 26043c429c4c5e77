package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// cacheModel is how the process's cache serves the reconcilers' cached
// reads: what its informers may serve (internal/informers: the versions
// each served, the cold-restart floors, the field indexes Setup
// registered, the points a List may be served from), the lag chosen for
// each read among those, the stale windows it opens (window.go) and the
// Lists served from the book (listfresh.go). Reads of uncached kinds go
// to the server.
type cacheModel struct {
	ex    *explorer
	trace *trace
	// model is what the informers may serve.
	model informers.Model
	// stale counts the stale windows opened in this schedule; windows
	// are those open in this process, by informer (window.go).
	stale   int
	windows map[informerKey]*openWindow
	// listCut marks the list points of the next chooseLag cut short by
	// Options.Versions (informers.Model.Points).
	listCut bool
	// lists are the kinds listed with no write since (listfresh.go).
	lists informers.Floors
}

// informerKey names one informer: a kind and a representation.
type informerKey = informers.Key

// representation is the kind of object an informer holds.
type representation = servedapi.Rep

// repOf is the representation of the informer that serves a cached read
// into obj (an object or a list).
func repOf(obj runtime.Object) representation { return informers.RepOf(obj) }

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
			lag = f.Lag(cm.trace.ch.Chooser, cm.trace.ch.Rng, w)
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
// into obj before the read (informers.View.Start): lazily, unless a
// controller watches the kind in that representation.
func (cm *cacheModel) startInformer(gvk schema.GroupVersionKind, obj runtime.Object) {
	rep := repOf(obj)
	cm.model.View.Start(gvk, rep, cm.ex == nil || cm.ex.setup.watched(gvk, rep))
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

// fetchList lists from the server (informers.Model.Fetch), its Lists at
// least as new as the kind's floor (listfresh.go).
func (cm *cacheModel) fetchList(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) ([]book.Key, error) {
	if cm.lists != nil {
		c = informers.FreshLists{WithWatch: c, Floors: cm.lists}
	}
	return cm.model.Fetch(ctx, c, list, api, opts)
}

// recordNewest records the items of a list served newest as read; a
// cached list's, as served by the informers, which then hold them.
func (cm *cacheModel) recordNewest(keys []book.Key, list client.ObjectList, api bool) {
	for _, k := range keys {
		h := cm.model.Book.History(k)
		uncached := !api && cm.uncachedRead(k.GVK, list)
		if !api && !uncached {
			cm.model.View.Saw(k, repOf(list), h.Newest())
		}
		if cm.trace.cur != nil {
			cm.trace.cur.step.Reads = append(cm.trace.cur.step.Reads, Read{Object: k.String(), Version: h.Newest() + 1, Newest: h.Newest() + 1, API: api, Uncached: uncached, List: true,
				Informer: informerName(api || uncached, repOf(list))})
			cm.trace.cur.seen[k] = h.Newest()
		}
	}
}
