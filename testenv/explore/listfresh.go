package explore

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// The kinds' floors, what a schedule knows of each kind's newest revision
// so that its Lists need not ask for the newest, are internal/informers'
// (Floors, floors.go there); the run keeps them in r.cache.Lists.

// freshReader reads the server as it is now for the steady-state checks
// (Scenario.Invariant, the record invariant): its Lists at least as new
// as the schedule's writes of their kind, as the reconcilers' Lists, its
// Gets the newest.
func (r *run) freshReader() client.Reader {
	return r.cache.Lists.Reader(withWatch(r.server))
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
