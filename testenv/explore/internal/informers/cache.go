package informers

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// Cache is how the process's cache serves the reconcilers' cached reads
// in one schedule: what its informers may serve (Model: the versions
// each served, the cold-restart floors, the field indexes Setup
// registered, the points a List may be served from), the lag chosen for
// each read among those (ChooseLag), the stale windows it opens
// (stale.go), the Lists served from the book (cachelist.go) and the
// kinds' floors (Lists). Reads of uncached kinds go to the server.
//
// It reads the schedule it serves only through Trace (the step, the
// choices, the records of reads and windows) and Setup (the bounds and
// the manager), which the explorer's run gives it.
type Cache struct {
	// Model is what the informers may serve.
	Model Model
	// Trace is the schedule the reads are served in; Setup, its bounds
	// and the scenario's manager.
	Trace Trace
	Setup Setup
	// Stale counts the stale windows opened in this schedule; windows
	// are those open in this process, by informer (stale.go).
	Stale   int
	windows map[Key]*openWindow
	// listCut marks the list points of the next ChooseLag cut short by
	// Options.Versions (Model.Points).
	listCut bool
	// Lists are the kinds' floors, and the scopes listed with no write
	// since (floors.go).
	Lists Floors
}

// Trace is the schedule a Cache serves reads in, as the explorer records
// it.
type Trace interface {
	// Step is the running step's index (from 1) and reconciler; index 0
	// outside a step.
	Step() (index int, reconciler string)
	// Drain reports that the drain runs: its reads are fresh.
	Drain() bool
	// Planned is the lag a replay fixes for the step's next cached read,
	// of n; planned is false when the step has no plan.
	Planned(n int) (lag int, planned bool)
	// NoteLag records the lag a cached read of the step was served at
	// (the seed's).
	NoteLag(lag int)
	// Served records a cached Get or List of kind served at lag of
	// points (1: the newest was all there was to serve), for the search
	// to say what it never served behind.
	Served(kind string, points, lag int)
	// Choose picks one of n options: the search's choice.
	Choose(n int) int
	// FaultLag and FaultInWindow are the fault phase's choices of a
	// stale read's lag, of w, and of the lag of a read an open window
	// serves at stay (internal/faults' Plan.Lag and Plan.InWindow); ok is
	// false outside the fault phase.
	FaultLag(w int) (lag int, ok bool)
	FaultInWindow(stay int) (lag int, ok bool)
	// Cut records that a bound cut the schedule's choices.
	Cut(b Bound)
	// Windows are the records of the windows that served step's reads
	// (explore.Step.Windows).
	Windows(step int) *[]Window
	// Read records a read of the running step, which has then seen the
	// object at r.Version or newer (Saw).
	Read(r Read)
	// Saw records that the running step has seen version v (from 0) of
	// k, or a newer one.
	Saw(k book.Key, v int)
	// Held records what the second cache held of an object at the
	// running step's start (explore.Step.SecondCache).
	Held(r Read)
}

// Bound names a bound of the search that cut a choice of the cache.
type Bound int

const (
	// CutVersions is Options.Versions: an older version was there.
	CutVersions Bound = iota
	// CutStaleReads is Options.StaleReads: a window was there to open.
	CutStaleReads
)

// Setup is what a Cache reads of the search's bounds and the scenario's
// manager.
type Setup interface {
	// Bounds are Options.Versions and Options.StaleReads.
	Bounds() (versions, staleReads int)
	// Spans reports whether windows stay open past their step.
	Spans() bool
	// Uncached reports a read of kind gvk into obj (an object or a list)
	// that a manager's client sends to the server, never its cache.
	Uncached(gvk schema.GroupVersionKind, obj runtime.Object) bool
	// Watched reports that a controller watches gvk in rep: its informer
	// starts with the manager, not at its first read.
	Watched(gvk schema.GroupVersionKind, rep servedapi.Rep) bool
}

// Read is a read the cache served, as a step records it (explore.Read):
// versions count from 1.
type Read struct {
	Key             book.Key
	Version, Newest int
	// API, Uncached, List and Missing are explore.Read's; Informer is
	// the representation's name, "" for a fresh read.
	API, Uncached, List, Missing bool
	Informer                     string
	// OtherAPIServer and Window are explore.Read's, 0 for none.
	OtherAPIServer, Window int
}

// ChooseLag picks how many versions behind the newest a cached read is,
// of n lags (0 to n-1); stay is the lag at which the open window of the
// read's informer serves it (stale.go), -1 when none is open.
func (c *Cache) ChooseLag(n, stay int) int {
	if i, _ := c.Trace.Step(); i == 0 {
		return 0
	}
	lag, listCut := 0, c.listCut
	c.listCut = false
	versions, staleReads := c.Setup.Bounds()
	planned, isPlanned := c.Trace.Planned(n)
	switch {
	case isPlanned:
		lag = planned
	case c.Trace.Drain():
	case stay == 0: // the window's point has the newest version
	case stay > 0:
		lag = c.inWindow(n, stay)
	case c.Stale < staleReads:
		// The stalest version first: most bugs need one.
		w := min(n, versions)
		if l, ok := c.Trace.FaultLag(w); ok {
			lag = l
		} else {
			lag = w - 1 - c.Trace.Choose(w)
		}
		if n > w || listCut {
			c.Trace.Cut(CutVersions)
		}
	case n > 1:
		c.Trace.Cut(CutStaleReads) // a stale window was there to open
	}
	c.Trace.NoteLag(lag)
	return lag
}

// UncachedRead reports a read of kind gvk into obj (an object or a list)
// through the reconcilers' client that goes to the server (Setup.Uncached).
func (c *Cache) UncachedRead(gvk schema.GroupVersionKind, obj runtime.Object) bool {
	return c.Setup.Uncached(gvk, obj)
}

// StartInformer starts the informer that serves a cached read of gvk
// into obj before the read (View.Start): lazily, unless a controller
// watches the kind in that representation.
func (c *Cache) StartInformer(gvk schema.GroupVersionKind, obj runtime.Object) {
	rep := RepOf(obj)
	c.Model.View.Start(gvk, rep, c.Setup.Watched(gvk, rep))
}

// NewestList serves a List with the server's newest items.
func (c *Cache) NewestList(ctx context.Context, cl client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) error {
	keys, err := c.fetchList(ctx, cl, list, api, opts)
	if err != nil {
		return err
	}
	c.recordNewest(keys, list, api)
	return nil
}

// fetchList lists from the server (Model.Fetch), its Lists at least as
// new as the kind's floor (Floors).
func (c *Cache) fetchList(ctx context.Context, cl client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) ([]book.Key, error) {
	if c.Lists != nil {
		cl = FreshLists{WithWatch: cl, Floors: c.Lists}
	}
	return c.Model.Fetch(ctx, cl, list, api, opts)
}

// recordNewest records the items of a list served newest as read; a
// cached list's, as served by the informers, which then hold them.
func (c *Cache) recordNewest(keys []book.Key, list client.ObjectList, api bool) {
	for _, k := range keys {
		h := c.Model.Book.History(k)
		uncached := !api && c.UncachedRead(k.GVK, list)
		if !api && !uncached {
			c.Model.View.Saw(k, RepOf(list), h.Newest())
		}
		if i, _ := c.Trace.Step(); i != 0 {
			inf := ""
			if !api && !uncached {
				inf = RepOf(list).String()
			}
			c.Trace.Read(Read{Key: k, Version: h.Newest() + 1, Newest: h.Newest() + 1, API: api, Uncached: uncached, List: true, Informer: inf})
		}
	}
}

// plural is n what, with an s unless n is 1.
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
