package run

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
)

// A reconcile that returns a requeue having read and written nothing did
// not look at the state: a rate limiter in front of the reconciler
// (Cluster API's reconcilerWrapper, util/controller, on by default,
// returns RequeueAfter the rest of a second to a reconcile of an object
// reconciled less than a second before) or a timer. A drain round of
// such reconciles writes nothing but is no steady state: the drain waits
// out the longest delay they asked for and runs the round again, up to
// maxDeferral and maxDeferredRounds rounds in a row; past those it judges
// no steady state at all (Unknown, not stuck).
const (
	maxDeferral       = 2 * time.Second
	maxDeferredRounds = 3
)

// deferral is what a drain round's steps deferred: whether one returned
// a requeue without reading or writing anything, and the longest delay
// such a step asked for.
type deferral struct {
	any  bool
	wait time.Duration
}

// requeuedUnread reports whether step s, which returned res and err,
// returned a requeue having read and written nothing through the clients
// (an informer store's reads are not among them: explored.go counts
// those apart).
func requeuedUnread(s outcome.Step, res ctrl.Result, err error) bool {
	requeued := res.Requeue || res.RequeueAfter > 0 //nolint:staticcheck // Requeue is what the reconciler said
	return err == nil && requeued && len(s.Reads) == 0 && len(s.SecondCache) == 0 && len(s.Writes) == 0
}

// note records step s, which returned res and err.
func (d *deferral) note(s outcome.Step, res ctrl.Result, err error) {
	if !requeuedUnread(s, res, err) {
		return
	}
	d.any = true
	d.wait = max(d.wait, res.RequeueAfter)
}

// waitOut waits out d's delay, unless it is over maxDeferral or ctx ends
// first; it reports whether the drain may run another round.
func (d deferral) waitOut(ctx context.Context) bool {
	if d.wait > maxDeferral {
		return false
	}
	t := time.NewTimer(d.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
