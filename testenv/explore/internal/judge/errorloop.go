package judge

import (
	"fmt"
	"strings"
)

// ErrorLoop judges the steady round (fresh reads, nothing written): a
// reconcile of it that returned an error fails forever, as nothing will
// change. An action that failed is not retried (each runs once).
func ErrorLoop(round []Step) (Failure, bool) {
	for _, s := range round {
		if strings.HasPrefix(s.Reconciler, "action ") {
			continue
		}
		if msg, ok := strings.CutPrefix(s.Result, "error: "); ok {
			return Failure{Object: s.Object, Message: fmt.Sprintf("step %d (%s reconciles %s) returns an error in a steady state, so it is retried forever: %s",
				s.Index, s.Reconciler, s.Object, msg)}, true
		}
	}
	return Failure{}, false
}
