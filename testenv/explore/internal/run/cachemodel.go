package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The cache model (informers.Cache, r.Cache) is how the process's cache
// serves the reconcilers' cached reads (what its informers may serve, the
// lag chosen for each read, the stale windows, the Lists served from the
// book, the kinds' floors). It reads the run only through cacheTrace and
// cacheSetup, below. Reads of uncached kinds go to the server.

// newCacheModel is the cache of r, recorded in t, on the versions of b.
func newCacheModel(r *Run, t *Trace, b *book.Book) informers.Cache {
	return informers.Cache{Model: informers.Model{Book: b, Floor: map[book.Key]int{}}, Trace: cacheTrace{t}, Setup: cacheSetup{r}, Lists: informers.Floors{}}
}

// The kinds' floors, what a schedule knows of each kind's newest revision
// so that its Lists need not ask for the newest, are internal/informers'
// (Floors, floors.go there); the run keeps them in r.Cache.Lists.

// freshReader reads the server as it is now for the steady-state checks
// (Scenario.Invariant, the record invariant): its Lists at least as new
// as the schedule's writes of their kind, as the reconcilers' Lists, its
// Gets the newest.
func (r *Run) freshReader() client.Reader {
	return r.Cache.Lists.Reader(intercept.WithWatch(r.server))
}

// newestRV is the resourceVersion of the book's newest version of k, ""
// when it holds none or the object is absent.
func (r *Run) newestRV(k book.Key) string {
	h := r.Book.History(k)
	if h == nil || h.Versions[h.Newest()] == nil {
		return ""
	}
	return h.RVs[h.Newest()]
}

// The served API (internal/served) reads the run's book through
// informers.ServedBook; what its second cache held at a step's start the
// cache model records (informers.Cache.MarkSeen).

// servedBook is r's book as the served API reads it.
func servedBook(r *Run) informers.ServedBook {
	return informers.ServedBook{Book: r.Book, Server: r.server, Crash: errCrashed}
}

// cacheTrace is the trace as the cache reads and records it
// (informers.Trace).
type cacheTrace struct{ t *Trace }

func (c cacheTrace) Step() (int, string) {
	if s := c.t.Cur; s != nil {
		return s.Step.Index, s.Step.Reconciler
	}
	return 0, ""
}

func (c cacheTrace) Drain() bool { return c.t.Drain }

// Planned: a replay's plan, or the drain's empty one, fixes the lags.
func (c cacheTrace) Planned(n int) (int, bool) {
	s := c.t.Cur
	if s.plan == nil {
		return 0, false
	}
	if i := len(s.lags); i < len(s.plan) {
		return min(s.plan[i], n-1), true
	}
	return 0, true
}

func (c cacheTrace) NoteLag(lag int) { c.t.Cur.lags = append(c.t.Cur.lags, lag) }

// Served: the Explored count of a reconcile's cached reads (explored.go);
// an action's, or a pushed event's handler's, are no reconciler's.
func (c cacheTrace) Served(kind string, points, lag int) {
	if s := c.t.Cur; s != nil && !s.action && s.Step.Object != "" {
		c.t.Explored.cachedRead(s.Step.Reconciler, kind, s.Step.Drain, points > 1, lag > 0)
	}
}

func (c cacheTrace) Choose(n int) int { return c.t.Ch.Choose(n) }

func (c cacheTrace) FaultLag(w int) (int, bool) {
	if f := c.t.Ch.Faults; f != nil {
		return f.Lag(c.t.Ch.Chooser, c.t.Ch.Rng, w), true
	}
	return 0, false
}

func (c cacheTrace) FaultInWindow(stay int) (int, bool) {
	if f := c.t.Ch.Faults; f != nil {
		return f.InWindow(c.t.Ch.Chooser, c.t.Ch.Rng, stay), true
	}
	return 0, false
}

func (c cacheTrace) Cut(b informers.Bound) {
	if b == informers.CutVersions {
		c.t.NoteCut(CutVersions)
	} else {
		c.t.NoteCut(CutStaleReads)
	}
}

// Windows: the running step's, or one run before it.
func (c cacheTrace) Windows(step int) *[]informers.Window {
	if s := c.t.Cur; s != nil && s.Step.Index == step {
		return &s.Step.Windows
	}
	return &c.t.Steps[step-1].Windows
}

func (c cacheTrace) Read(r informers.Read) {
	c.t.Cur.Step.Reads = append(c.t.Cur.Step.Reads, stepRead(r))
	c.Saw(r.Key, r.Version-1)
}

func (c cacheTrace) Saw(k book.Key, v int) {
	if s := c.t.Cur; v > s.seenOrNone(k) {
		s.Seen[k] = v
	}
}

func (c cacheTrace) Held(r informers.Read) {
	c.t.Cur.Step.SecondCache = append(c.t.Cur.Step.SecondCache, stepRead(r))
}

// stepRead is r as a step lists it.
func stepRead(r informers.Read) outcome.Read {
	return outcome.Read{Object: r.Key.String(), Version: r.Version, Newest: r.Newest, API: r.API, Uncached: r.Uncached, List: r.List,
		Missing: r.Missing, Informer: r.Informer, OtherAPIServer: r.OtherAPIServer, Window: r.Window}
}

// cacheSetup is the explorer's bounds and setup as the cache reads them
// (informers.Setup), asked at each call (Explorer); a run alone (no
// Explorer, tests) caches every kind, at no bound, windows spanning.
type cacheSetup struct{ r *Run }

func (c cacheSetup) Bounds() (versions, staleReads int) {
	o := optionsOf(c.r.ex)
	return o.Versions, o.StaleReads
}

// Uncached: a kind of Options.Uncached or of the operator's
// Scenario.Manager.Client.Cache.DisableFor, or an unstructured object
// unless Client.Cache.Unstructured says to cache those, as
// controller-runtime's client decides.
func (c cacheSetup) Uncached(gvk schema.GroupVersionKind, obj runtime.Object) bool {
	if c.r.ex == nil {
		return false
	}
	s := c.r.ex.Scenario()
	if s.Uncached[gvk] {
		return true
	}
	_, unstructured := obj.(runtime.Unstructured)
	return unstructured && !s.CacheUnstructured
}

func (c cacheSetup) Watched(gvk schema.GroupVersionKind, rep servedapi.Rep) bool {
	return c.r.ex == nil || c.r.ex.Scenario().Kinds.Watched(gvk, rep)
}

// Spans reports whether windows stay open past their step (Options.Spans).
func (c cacheSetup) Spans() bool { return optionsOf(c.r.ex).Spans }
