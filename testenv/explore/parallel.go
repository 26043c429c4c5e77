package explore

import (
	"sync"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// The workers of a search: search.DepthFirst and search.RunRandom run
// their schedules on a pool of explorers, one on each world of the
// backend (the depth-first search keeps the serial search's order:
// internal/search/depth.go says how).

// workers are the explorers of the search's worlds: ex itself on the
// first, a copy on each other one, up to Options.Parallel.
func (ex *explorer) workers() []*explorer {
	worlds := ex.o.Backend.worlds()
	n := min(ex.o.Parallel, len(worlds))
	if ex.o.Replay != "" || n < 1 {
		n = 1
	}
	out := []*explorer{ex}
	if n == 1 {
		return out
	}
	if v := ex.knobs.visit; v != nil {
		var mu sync.Mutex
		ex.knobs.visit = func(w *explorer, r *run) {
			mu.Lock()
			defer mu.Unlock()
			v(w, r)
		}
	}
	for _, w := range worlds[1:n] {
		c := *ex
		c.o.Backend = w
		c.touched, c.runs, c.last, c.fresh, c.before = nil, 0, nil, nil, reset.Before{}
		out = append(out, &c)
	}
	return out
}

func cleanupWorkers(workers []*explorer) {
	for _, w := range workers[1:] { // the first is Run's own, cleaned up by Run
		w.cleanup()
	}
}
