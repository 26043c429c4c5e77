package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// chooser makes the choices of one schedule (search.Chooser) and, in the
// fault phase, draws its faults.
type chooser struct {
	*search.Chooser
	// faults, in the fault phase, are the schedule's faults
	// (internal/faults).
	faults *faults.Plan
}

// item picks which of the n queued items runs next.
func (c *chooser) item(n int) int {
	if c.faults != nil {
		return c.faults.Item(c.Chooser, n)
	}
	return c.Choose(n)
}
