package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/queue"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// workQueue is a schedule's queue of reconciles and actions (queue.Work).
type workQueue = queue.Work

// newWorkQueue is an empty queue whose queue.Router, made at the first
// event, routes on the scenario's reconcilers and runs the operator's
// predicates without the run's calls lock.
func newWorkQueue(ex *explorer, b *book.Book, server client.Client, calls *callLock) workQueue {
	return workQueue{NewRouter: func() *queue.Router {
		st := &ex.setup
		rcs := make([]queue.Reconciler, len(st.forKinds))
		for i := range rcs {
			rc := st.s.Reconcilers[i]
			rcs[i] = queue.Reconciler{For: st.forKinds[i], Owns: st.ownKinds[i], Predicates: rc.Predicates, EventFilter: rc.EventFilter}
		}
		return &queue.Router{Book: b, Server: server, Reconcilers: rcs, Calls: &calls.Calls}
	}}
}
