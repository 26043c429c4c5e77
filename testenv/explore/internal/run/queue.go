package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/queue"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newWorkQueue is a schedule's queue of reconciles and actions, empty, whose queue.Router, made at the first
// event, routes on the scenario's reconcilers and runs the operator's
// predicates without the run's calls lock.
func newWorkQueue(ex Explorer, b *book.Book, server client.Client, calls *callLock) queue.Work {
	return queue.Work{NewRouter: func() *queue.Router {
		var rcs []queue.Reconciler // a run alone (no Explorer) has none
		if ex != nil {
			sc := ex.Scenario()
			rcs = make([]queue.Reconciler, len(sc.ForKinds))
			for i := range rcs {
				rc := sc.Reconcilers[i]
				rcs[i] = queue.Reconciler{For: sc.ForKinds[i], Owns: sc.OwnKinds[i], Predicates: rc.Predicates, EventFilter: rc.EventFilter}
			}
		}
		return &queue.Router{Book: b, Server: server, Reconcilers: rcs, Calls: &calls.Calls}
	}}
}
