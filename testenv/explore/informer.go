package explore

import (
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
type cacheView struct {
	// served is, per object and informer, the newest version served.
	served map[served]int
	// started are the informers started lazily in this process.
	started map[informerKey]bool
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
		if s.k.gvk == gvk && s.rep != rep {
			from = append(from, s)
		}
	}
	for _, s := range from {
		c.saw(s.k, rep, c.served[s])
	}
}

// representation is the kind of object an informer holds.
type representation int

const (
	typedRep representation = iota
	unstructuredRep
	metadataRep
	reps // how many
)

func (r representation) String() string {
	switch r {
	case unstructuredRep:
		return "unstructured"
	case metadataRep:
		return "metadata-only"
	}
	return ""
}

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
	k   objKey
	rep representation
}

// lowest is the oldest version of k a cached read through the informer
// of rep may see now.
func (c *cacheView) lowest(k objKey, rep representation) int { return c.served[served{k, rep}] }

// saw records that the informer of rep served version v of k.
func (c *cacheView) saw(k objKey, rep representation, v int) {
	if c.served == nil {
		c.served = map[served]int{}
	}
	if v > c.served[served{k, rep}] {
		c.served[served{k, rep}] = v
	}
}

// reset is a new process's (or a standby manager's) cache: its own
// informers, which have served nothing yet, none started lazily.
func (c *cacheView) reset() { c.served, c.started = nil, nil }

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
func (c *cacheView) state(keys []objKey) []int {
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
