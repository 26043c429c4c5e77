package explore

import (
	"context"
	"fmt"
	"strings"
)

// invErrorLoop: a reconcile returns an error in the steady round (fresh
// reads, nothing written): it is retried forever.
var invErrorLoop = invariant{
	name:     InvariantErrorLoop,
	onSteady: func(_ context.Context, r *run, first int) { r.trace.checkErrorLoop(r.trace.steps[first:]) },
}

// checkErrorLoop fails when a reconcile of the steady round (fresh reads,
// nothing written) returned an error: nothing will change, so it fails
// forever. An action that failed is not retried (each runs once).
func (t *trace) checkErrorLoop(round []Step) {
	for _, s := range round {
		if strings.HasPrefix(s.Reconciler, "action ") {
			continue
		}
		if msg, ok := strings.CutPrefix(s.Result, "error: "); ok {
			t.failOn(InvariantErrorLoop, failDetail{object: s.Object}, fmt.Sprintf("step %d (%s reconciles %s) returns an error in a steady state, so it is retried forever: %s",
				s.Index, s.Reconciler, s.Object, msg))
			return
		}
	}
}
