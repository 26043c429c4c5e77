package informers

import (
	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// A manager's cache is one informer per kind and representation, shared
// by the process's controllers, as controller-runtime's cache keys them
// (pkg/cache/internal/informers.go: a tracker each for structured,
// unstructured and metadata-only objects, by GroupVersionKind): a cached
// read of a *metav1.PartialObjectMetadata is served by the kind's
// metadata informer, one of an unstructured object (when the manager's
// client caches those) by its unstructured informer, any other by its
// typed informer. Label and field selectors in a List filter what one
// informer holds; they make no informer of their own.
//
// An informer applies the watch's events in order, so its view of an
// object never goes backwards: once a cached read (a Get or a List)
// through it has seen a version, no later read through it in the same
// process sees an older one, within a reconcile or from one reconcile to
// the next. Each informer watches on its own, so a read through another
// informer of the kind may be older or newer. A schedule that breaks this
// is one no manager can produce; View keeps the explorer's choices,
// the minimiser's replays included, within it.
//
// A manager starts the informers its controllers watch (For, Owns,
// Watches) when it starts; any other starts at its first read (a Get or a
// List of a kind and representation no controller watches), and that
// read waits for its first list. On one API server that list comes from
// the kind's watch cache, which every informer of the kind watches and
// which never goes backwards: it is at least as new as any version
// another informer of the kind has served in this process. So an
// informer started lazily begins at what the kind's other informers have
// served (Start), never older; one started with the manager may lag
// behind them from its first read. Not its floor: what the API reader
// or the process's own writes saw, which the watch cache may not hold
// yet.
//
// A leader change (internal/run's crash.go) hands the work to a standby
// manager, another process. A manager starts the informers its controllers watch only once
// it is elected (controllers start their sources when they start, after
// the election), so those, and any it starts lazily, begin with a list at
// the change or later. Each process talks to one API server (client-go
// keeps one HTTP/2 connection to the server's address), so within a
// process that list comes from the watch cache the process's other
// informers watch; but the new leader's connection may reach another API
// server of the control plane, whose watch cache lags the one the old
// leader watched. So its reads may be older than what the old leader's
// informers were served (carried); such a read is marked in the schedule
// (explore.Read.OtherAPIServer): it needs a control plane of several API servers.
// The informers the standby started before the election have run all
// along on their own watch and may lag on one API server too (early):
// their reads are not marked. Those are its field indexes' (IndexField
// gets its informer at once, and the cache starts it with the manager)
// and those its controllers with warm-up (EnableWarmup) or without leader
// election watch: such a controller starts its sources when the manager
// starts (the explorer's warmup.go).
type View struct {
	// served is, per object and informer, the newest version served.
	served map[served]int
	// started are the informers started lazily in this process.
	started map[Key]bool
	// carried is, per object, the newest version the informers of the
	// processes before the last leader change were served (nil: no leader
	// change yet): on one API server, the floor of every informer but the
	// early ones.
	carried map[book.Key]int
	// early are the informers that ran before this process took over
	// (after a leader change: its field indexes' and its warm-up
	// controllers' informers).
	early map[Key]bool
}

// Key names one informer: a kind and a representation.
type Key struct {
	GVK schema.GroupVersionKind
	Rep servedapi.Rep
}

// Start starts the informer of gvk and rep, started lazily (watched
// false) or with the manager, before it serves its first read: a lazy one
// begins at the newest version each object of the kind was served by the
// process's other informers of the kind.
func (c *View) Start(gvk schema.GroupVersionKind, rep servedapi.Rep, watched bool) {
	if watched || c.started[Key{GVK: gvk, Rep: rep}] {
		return
	}
	if c.started == nil {
		c.started = map[Key]bool{}
	}
	c.started[Key{GVK: gvk, Rep: rep}] = true
	var from []served
	for s := range c.served {
		if s.k.GVK == gvk && s.rep != rep {
			from = append(from, s)
		}
	}
	for _, s := range from {
		c.Saw(s.k, rep, c.served[s])
	}
}

// RepOf is the representation of the informer that serves a cached read
// into obj (an object or a list), as controller-runtime's informersByType
// chooses it.
func RepOf(obj runtime.Object) servedapi.Rep {
	switch obj.(type) {
	case runtime.Unstructured:
		return servedapi.UnstructuredRep
	case *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
		return servedapi.MetadataRep
	}
	return servedapi.TypedRep
}

// served names one object in one informer.
type served struct {
	k   book.Key
	rep servedapi.Rep
}

// Lowest is the oldest version of k a cached read through the informer
// of rep may see now.
func (c *View) Lowest(k book.Key, rep servedapi.Rep) int { return c.served[served{k, rep}] }

// PastLeader is, for a read of version v of k through the informer of rep,
// the newest version the informers before the last leader change were
// served of k when v is older and the informer is not an early one (a read
// that needs another API server), else -1.
func (c *View) PastLeader(k book.Key, rep servedapi.Rep, v int) int {
	if c.carried == nil || c.early[Key{GVK: k.GVK, Rep: rep}] {
		return -1
	}
	if f, ok := c.carried[k]; ok && v < f {
		return f
	}
	return -1
}

// Saw records that the informer of rep served version v of k.
func (c *View) Saw(k book.Key, rep servedapi.Rep, v int) {
	if c.served == nil {
		c.served = map[served]int{}
	}
	if v > c.served[served{k, rep}] {
		c.served[served{k, rep}] = v
	}
}

// Reset is a restarted process's cache: its own informers, which have
// served nothing yet, none started lazily (what they may serve, the
// restart's floor, is Model.Floor's).
func (c *View) Reset() { c.served, c.started, c.early = nil, nil, nil }

// HandOver is a standby manager's cache after a leader change: its own
// informers, none started lazily; carried keeps what the old leader's
// informers, and those of any process before it, were served.
func (c *View) HandOver(early map[Key]bool) {
	if c.carried == nil {
		c.carried = map[book.Key]int{}
	}
	for s, v := range c.served {
		c.carried[s.k] = max(c.carried[s.k], v)
	}
	c.served, c.started, c.early = nil, nil, early
}

// Lazy lists the informers started lazily, sorted, for the state hash:
// each begins at what the others served, one not started yet will.
func (c *View) Lazy() []string {
	var out []string
	for i := range c.started {
		out = append(out, i.GVK.String()+"|"+strconv.Itoa(int(i.Rep)))
	}
	sort.Strings(out)
	return out
}

// State lists what each informer served of keys, in that order, for the
// state hash: it bounds what each may serve next.
func (c *View) State(keys []book.Key) []int {
	if len(c.served) == 0 {
		return nil
	}
	out := make([]int, 0, int(servedapi.Reps)*len(keys))
	for rep := range servedapi.Reps {
		for _, k := range keys {
			out = append(out, c.served[served{k, rep}])
		}
	}
	return out
}

// Past lists, for keys in that order, the newest version the informers
// before the last leader change were served (none: nil), for the state
// hash: it decides which of the new leader's reads need another API
// server (PastLeader).
func (c *View) Past(keys []book.Key) []int {
	if len(c.carried) == 0 {
		return nil
	}
	out := make([]int, 0, len(keys))
	for _, k := range keys {
		out = append(out, c.carried[k])
	}
	return out
}
