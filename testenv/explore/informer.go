package explore

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
type cacheView struct {
	// served is, per object and informer, the newest version served.
	served map[served]int
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
// informers, which have served nothing yet.
func (c *cacheView) reset() { c.served = nil }

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
