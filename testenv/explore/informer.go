package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
// is one no manager can produce; cacheView keeps the explorer's choices,
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
// served (start), never older; one started with the manager may lag
// behind them from its first read. Not its floor: what the API reader
// or the process's own writes saw, which the watch cache may not hold
// yet.
//
// A leader change (crash.go) hands the work to a standby manager, another
// process. A manager starts the informers its controllers watch only once
// it is elected (controllers start their sources when they start, after
// the election), so those, and any it starts lazily, begin with a list at
// the change or later. Each process talks to one API server (client-go
// keeps one HTTP/2 connection to the server's address), so within a
// process that list comes from the watch cache the process's other
// informers watch; but the new leader's connection may reach another API
// server of the control plane, whose watch cache lags the one the old
// leader watched. So its reads may be older than what the old leader's
// informers were served (carried); such a read is marked in the schedule
// (Read.OtherAPIServer): it needs a control plane of several API servers.
// The informers the standby started before the election have run all
// along on their own watch and may lag on one API server too (early):
// their reads are not marked. Those are its field indexes' (IndexField
// gets its informer at once, and the cache starts it with the manager)
// and those its controllers with warm-up (EnableWarmup) or without leader
// election watch: such a controller starts its sources when the manager
// starts (warmup.go).
type cacheView struct {
	// served is, per object and informer, the newest version served.
	served map[served]int
	// started are the informers started lazily in this process.
	started map[informerKey]bool
	// carried is, per object, the newest version the informers of the
	// processes before the last leader change were served (nil: no leader
	// change yet): on one API server, the floor of every informer but the
	// early ones.
	carried map[book.Key]int
	// early are the informers that ran before this process took over
	// (after a leader change: its field indexes' and its warm-up
	// controllers' informers).
	early map[informerKey]bool
}

// informerKey names one informer: a kind and a representation.
type informerKey struct {
	gvk schema.GroupVersionKind
	rep representation
}

// start starts the informer of gvk and rep, started lazily (watched
// false) or with the manager, before it serves its first read: a lazy one
// begins at the newest version each object of the kind was served by the
// process's other informers of the kind.
func (c *cacheView) start(gvk schema.GroupVersionKind, rep representation, watched bool) {
	if watched || c.started[informerKey{gvk, rep}] {
		return
	}
	if c.started == nil {
		c.started = map[informerKey]bool{}
	}
	c.started[informerKey{gvk, rep}] = true
	var from []served
	for s := range c.served {
		if s.k.GVK == gvk && s.rep != rep {
			from = append(from, s)
		}
	}
	for _, s := range from {
		c.saw(s.k, rep, c.served[s])
	}
}

// representation is the kind of object an informer holds.
type representation = servedapi.Rep

const (
	typedRep        = servedapi.TypedRep
	unstructuredRep = servedapi.UnstructuredRep
	metadataRep     = servedapi.MetadataRep
	reps            = servedapi.Reps // how many
)

// repOf is the representation of the informer that serves a cached read
// into obj (an object or a list), as controller-runtime's informersByType
// chooses it.
func repOf(obj runtime.Object) representation {
	switch obj.(type) {
	case runtime.Unstructured:
		return unstructuredRep
	case *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
		return metadataRep
	}
	return typedRep
}

// served names one object in one informer.
type served struct {
	k   book.Key
	rep representation
}

// lowest is the oldest version of k a cached read through the informer
// of rep may see now.
func (c *cacheView) lowest(k book.Key, rep representation) int { return c.served[served{k, rep}] }

// pastLeader is, for a read of version v of k through the informer of rep,
// the newest version the informers before the last leader change were
// served of k when v is older and the informer is not an early one (a read
// that needs another API server), else -1.
func (c *cacheView) pastLeader(k book.Key, rep representation, v int) int {
	if c.carried == nil || c.early[informerKey{k.GVK, rep}] {
		return -1
	}
	if f, ok := c.carried[k]; ok && v < f {
		return f
	}
	return -1
}

// saw records that the informer of rep served version v of k.
func (c *cacheView) saw(k book.Key, rep representation, v int) {
	if c.served == nil {
		c.served = map[served]int{}
	}
	if v > c.served[served{k, rep}] {
		c.served[served{k, rep}] = v
	}
}

// reset is a restarted process's cache: its own informers, which have
// served nothing yet, none started lazily (what they may serve, the
// restart's floor, is the run's: crash.go).
func (c *cacheView) reset() { c.served, c.started, c.early = nil, nil, nil }

// handOver is a standby manager's cache after a leader change: its own
// informers, none started lazily; carried keeps what the old leader's
// informers, and those of any process before it, were served.
func (c *cacheView) handOver(early map[informerKey]bool) {
	if c.carried == nil {
		c.carried = map[book.Key]int{}
	}
	for s, v := range c.served {
		c.carried[s.k] = max(c.carried[s.k], v)
	}
	c.served, c.started, c.early = nil, nil, early
}

// lazy lists the informers started lazily, sorted, for the state hash:
// each begins at what the others served, one not started yet will.
func (c *cacheView) lazy() []string {
	var out []string
	for i := range c.started {
		out = append(out, i.gvk.String()+"|"+strconv.Itoa(int(i.rep)))
	}
	sort.Strings(out)
	return out
}

// state lists what each informer served of keys, in that order, for the
// state hash: it bounds what each may serve next.
func (c *cacheView) state(keys []book.Key) []int {
	if len(c.served) == 0 {
		return nil
	}
	out := make([]int, 0, int(reps)*len(keys))
	for rep := range reps {
		for _, k := range keys {
			out = append(out, c.served[served{k, rep}])
		}
	}
	return out
}

// past lists, for keys in that order, the newest version the informers
// before the last leader change were served (none: nil), for the state
// hash: it decides which of the new leader's reads need another API
// server (pastLeader).
func (c *cacheView) past(keys []book.Key) []int {
	if len(c.carried) == 0 {
		return nil
	}
	out := make([]int, 0, len(keys))
	for _, k := range keys {
		out = append(out, c.carried[k])
	}
	return out
}
