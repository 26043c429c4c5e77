package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// cacheModel is how the process's cache serves the reconcilers' cached
// reads (internal/informers' Cache: what its informers may serve, the lag
// chosen for each read, the stale windows, the Lists served from the
// book, the kinds' floors). It reads the run only through cacheTrace
// and cacheSetup, below. Reads of uncached kinds go to the server.
type cacheModel = informers.Cache

// newCacheModel is the cache of a new schedule of ex, recorded in t, on
// the versions of b.
func newCacheModel(ex *explorer, t *trace, b *book.Book) cacheModel {
	return cacheModel{Model: informers.Model{Book: b, Floor: map[book.Key]int{}}, Trace: cacheTrace{t}, Setup: cacheSetup{ex}, Lists: informers.Floors{}}
}

// informerKey names one informer: a kind and a representation.
type informerKey = informers.Key

// representation is the kind of object an informer holds.
type representation = servedapi.Rep

// repOf is the representation of the informer that serves a cached read
// into obj (an object or a list).
func repOf(obj runtime.Object) representation { return informers.RepOf(obj) }

// The kinds' floors, what a schedule knows of each kind's newest revision
// so that its Lists need not ask for the newest, are internal/informers'
// (Floors, floors.go there); the run keeps them in r.cache.Lists.

// freshReader reads the server as it is now for the steady-state checks
// (Scenario.Invariant, the record invariant): its Lists at least as new
// as the schedule's writes of their kind, as the reconcilers' Lists, its
// Gets the newest.
func (r *run) freshReader() client.Reader {
	return r.cache.Lists.Reader(intercept.WithWatch(r.server))
}

// newestRV is the resourceVersion of the book's newest version of k, ""
// when it holds none or the object is absent.
func (r *run) newestRV(k book.Key) string {
	h := r.book.History(k)
	if h == nil || h.Versions[h.Newest()] == nil {
		return ""
	}
	return h.RVs[h.Newest()]
}

// The served API (internal/served) reads the run's book through
// informers.ServedBook; what its second cache held at a step's start the
// cache model records (informers.Cache.MarkSeen).

// servedBook is r's book as the served API reads it.
func servedBook(r *run) informers.ServedBook {
	return informers.ServedBook{Book: r.book, Server: r.server, Crash: errCrashed}
}

// cacheTrace is the trace as the cache reads and records it
// (informers.Trace).
type cacheTrace struct{ t *trace }

func (c cacheTrace) Step() (int, string) {
	if s := c.t.cur; s != nil {
		return s.step.Index, s.step.Reconciler
	}
	return 0, ""
}

func (c cacheTrace) Drain() bool { return c.t.drain }

// Planned: a replay's plan, or the drain's empty one, fixes the lags.
func (c cacheTrace) Planned(n int) (int, bool) {
	s := c.t.cur
	if s.plan == nil {
		return 0, false
	}
	if i := len(s.lags); i < len(s.plan) {
		return min(s.plan[i], n-1), true
	}
	return 0, true
}

func (c cacheTrace) NoteLag(lag int) { c.t.cur.lags = append(c.t.cur.lags, lag) }

func (c cacheTrace) Choose(n int) int { return c.t.ch.Choose(n) }

func (c cacheTrace) FaultLag(w int) (int, bool) {
	if f := c.t.ch.faults; f != nil {
		return f.Lag(c.t.ch.Chooser, c.t.ch.Rng, w), true
	}
	return 0, false
}

func (c cacheTrace) FaultInWindow(stay int) (int, bool) {
	if f := c.t.ch.faults; f != nil {
		return f.InWindow(c.t.ch.Chooser, c.t.ch.Rng, stay), true
	}
	return 0, false
}

func (c cacheTrace) Cut(b informers.Bound) {
	if b == informers.CutVersions {
		c.t.noteCut(boundVersions)
	} else {
		c.t.noteCut(boundStaleReads)
	}
}

// Windows: the running step's, or one run before it.
func (c cacheTrace) Windows(step int) *[]Window {
	if s := c.t.cur; s != nil && s.step.Index == step {
		return &s.step.Windows
	}
	return &c.t.steps[step-1].Windows
}

func (c cacheTrace) Read(r informers.Read) {
	c.t.cur.step.Reads = append(c.t.cur.step.Reads, stepRead(r))
	c.Saw(r.Key, r.Version-1)
}

func (c cacheTrace) Saw(k book.Key, v int) {
	if s := c.t.cur; v > s.seenOrNone(k) {
		s.seen[k] = v
	}
}

func (c cacheTrace) Held(r informers.Read) {
	c.t.cur.step.SecondCache = append(c.t.cur.step.SecondCache, stepRead(r))
}

// stepRead is r as a step lists it.
func stepRead(r informers.Read) Read {
	return Read{Object: r.Key.String(), Version: r.Version, Newest: r.Newest, API: r.API, Uncached: r.Uncached, List: r.List,
		Missing: r.Missing, Informer: r.Informer, OtherAPIServer: r.OtherAPIServer, Window: r.Window}
}

// cacheSetup is the explorer's bounds and setup as the cache reads them
// (informers.Setup); ex is nil in tests of a run alone.
type cacheSetup struct{ ex *explorer }

func (c cacheSetup) Bounds() (versions, staleReads int) {
	if c.ex == nil {
		return 0, 0
	}
	return c.ex.o.Versions, c.ex.o.StaleReads
}

// Uncached: a kind of Options.Uncached or of the operator's
// Scenario.Manager.Client.Cache.DisableFor, or an unstructured object
// unless Client.Cache.Unstructured says to cache those, as
// controller-runtime's client decides.
func (c cacheSetup) Uncached(gvk schema.GroupVersionKind, obj runtime.Object) bool {
	if c.ex == nil {
		return false
	}
	if c.ex.setup.uncached[gvk] {
		return true
	}
	_, unstructured := obj.(runtime.Unstructured)
	return unstructured && !c.ex.setup.cacheUnstructured
}

func (c cacheSetup) Watched(gvk schema.GroupVersionKind, rep representation) bool {
	return c.ex == nil || c.ex.setup.watched(gvk, rep)
}

// Spans reports whether windows stay open past their step: in every
// search but one at the default bounds (deepening level 0, or bounds set
// to them), the fault phase's and a replay's included. At the default
// bounds a window ends with its reconcile, as it did before windows
// spanned reconciles: their two units already reach one informer stale
// across two reconciles (as two windows), and keeping the space of the
// first level keeps the bugs it finds as fast (RabbitMQ's deleted
// cluster, found at level 0 with windows of one reconcile, was not with
// spanning ones within the deepening's 6 minutes: docs/explore.md,
// Limits).
func (c cacheSetup) Spans() bool {
	if c.ex == nil {
		return true
	}
	if c.ex.knobs.oneReconcile {
		return false
	}
	o := c.ex.o
	return c.ex.faults || o.Replay != "" || o.Depth != defaultDepth || o.Versions != defaultVersions || o.StaleReads != defaultStaleReads
}
