package run

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
)

// Explored counts what a schedule's reconciles explored, by reconciler
// (its Scenario name), for the search to say what it ran but did not
// explore (the root's notexplored.go). A reconcile the schedule chose
// that returned a requeue having read nothing (no read, no store read,
// no write: a rate limiter on the real clock, as Cluster API's, or a
// timer) did not look at the state where the schedule put it: the
// explorer requeues it, and what it would have done runs when the
// delay is over, which only the drain waits out (deferred.go). A store
// read (stores.go), and a cached Get or List (cachemodel.go's Served),
// is behind when the point it was served from is not the newest; the
// drain's never is.
type Explored struct {
	Reconciles map[string]*Reconciles
	Stores     map[StoreOf]*StoreReads
	Cached     map[StoreOf]*CachedReads
}

// Reconciles counts a reconciler's reconciles run to their end (no
// crash): Chosen, in the schedule's chosen steps, Deferred of those
// returned a requeue having read nothing; Drain, in the drain, and
// DrainDeferred of those.
type Reconciles struct{ Chosen, Deferred, Drain, DrainDeferred int }

// StoreOf is an informer's store (its kind) read by a reconciler.
type StoreOf struct{ Reconciler, Kind string }

// CachedReads counts a reconciler's cached Gets and Lists of a kind
// (informers.Trace.Served): in all; Older, those with an older version
// (a Get) or an older list (a List) there to serve, OlderDrain of them
// in the drain (fresh); Behind, those served from an older one.
type CachedReads struct{ Reads, Older, OlderDrain, Behind int }

// StoreReads counts the reads of a store: in all, in the drain, and
// those served from a point behind the newest.
type StoreReads struct{ Reads, Drain, Behind int }

// reconciled counts step s, run to its end with res and err, which read
// stores informer stores.
func (e *Explored) reconciled(s outcome.Step, stores int, res ctrl.Result, err error) {
	if e.Reconciles == nil {
		e.Reconciles = map[string]*Reconciles{}
	}
	c := e.Reconciles[s.Reconciler]
	if c == nil {
		c = &Reconciles{}
		e.Reconciles[s.Reconciler] = c
	}
	deferred := stores == 0 && requeuedUnread(s, res, err)
	if s.Drain {
		c.Drain++
		if deferred {
			c.DrainDeferred++
		}
		return
	}
	c.Chosen++
	if deferred {
		c.Deferred++
	}
}

// storeRead counts a read by reconciler of the store of kind's informer.
func (e *Explored) storeRead(reconciler, kind string, drain, behind bool) {
	if e.Stores == nil {
		e.Stores = map[StoreOf]*StoreReads{}
	}
	k := StoreOf{Reconciler: reconciler, Kind: kind}
	c := e.Stores[k]
	if c == nil {
		c = &StoreReads{}
		e.Stores[k] = c
	}
	c.Reads++
	if drain {
		c.Drain++
	}
	if behind {
		c.Behind++
	}
}

// cachedRead counts a cached Get or List by reconciler of kind: in the
// drain or not, with an older point there to serve, served behind.
func (e *Explored) cachedRead(reconciler, kind string, drain, older, behind bool) {
	if e.Cached == nil {
		e.Cached = map[StoreOf]*CachedReads{}
	}
	k := StoreOf{Reconciler: reconciler, Kind: kind}
	c := e.Cached[k]
	if c == nil {
		c = &CachedReads{}
		e.Cached[k] = c
	}
	c.Reads++
	if older {
		c.Older++
		if drain {
			c.OlderDrain++
		}
	}
	if behind {
		c.Behind++
	}
}
