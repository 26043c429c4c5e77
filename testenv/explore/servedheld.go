package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

	"context"
	"errors"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// The served API (internal/served) onto the book, and what its second
// cache held at a step's start, for the report: its reads are served from
// its own store, in process, out of the explorer's sight, so the step
// lists what it held, not what it read.

// book is the run's book as the served API reads it.
type servedBook struct{ r *run }

func (b servedBook) Newest(gvk schema.GroupVersionKind) []servedapi.Object {
	var out []servedapi.Object
	for _, k := range b.r.book.Keys() {
		if k.GVK != gvk {
			continue
		}
		h := b.r.book.History(k)
		out = append(out, servedapi.Object{NN: k.NN, Name: k.String(), Object: h.Versions[h.Newest()], RV: h.RVs[h.Newest()]})
	}
	return out
}

func (b servedBook) Crashed(err error) bool { return errors.Is(err, errCrashed) }

func (b servedBook) ListUnrecorded(ctx context.Context, list *unstructured.UnstructuredList, opts ...client.ListOption) error {
	return b.r.server.List(ctx, list, opts...)
}

// markSeen counts as seen by the step every object a watch covers (its
// namespace and field selector) at its newest version: the cache holds it
// so, or holds it not, which a label selector's cache says as much as a
// version does (the object left the selector).
func (r *run) markSeen(watches []servedapi.Request) {
	s := r.trace.cur
	if s == nil || len(watches) == 0 {
		return
	}
	for _, w := range watches {
		for _, k := range r.book.Keys() {
			if k.GVK != w.GVK || !w.Covers(k.NN) {
				continue
			}
			if h := r.book.History(k); h.Newest() > s.seenOrNone(k) {
				s.seen[k] = h.Newest()
			}
		}
	}
	noteHeld(r, s, watches)
}

// noteHeld adds to the step what the watches' cache holds of every
// object they cover (informers.Held): the newest version, or none (out of
// the label selector), in an order a replay lists the same.
func noteHeld(r *run, s *stepState, watches []servedapi.Request) {
	for _, o := range informers.Held(r.book, watches) {
		s.step.SecondCache = append(s.step.SecondCache, Read{Object: o.Key.String(), Version: o.Version + 1, Newest: o.Version + 1,
			Informer: o.Rep.String(), Missing: o.Missing})
	}
}
