package search

import (
	"context"
	"time"
)

// Depth is how a depth-first search runs: schedules of 1, 2, ... Depth
// chosen steps, while InBudget; StopAtFirst stops at the first failure,
// and without it Key is a verdict's defect and whether it is new. Found
// times are from Start.
type Depth[V any] struct {
	Start       time.Time
	Depth       int
	StopAtFirst bool
	InBudget    func(context.Context) bool
	Key         func(*Verdict[V]) (key string, isNew bool)
}

// DepthFirst runs schedules with 1, 2, ... o.Depth chosen steps,
// depth-first over the choices, shortest first: the first failure is one
// of the shortest. It goes on past failures within the budget, and
// returns the first schedule of each new defect (StopAtFirst: the first
// failing schedule), not minimised; a Found's Index counts the schedules
// run before it. It reports whether it ran them all.
func DepthFirst[V any](ctx context.Context, run Runner[V], o Depth[V]) ([]Found[V], bool, error) {
	var fs []Found[V]
	seen := map[string]bool{}
	n := 0
	for depth := 1; depth <= o.Depth; depth++ {
		var prefix []int
		for {
			c := &Chooser{Prefix: prefix}
			if !o.InBudget(ctx) {
				return fs, false, nil
			}
			v, err := run.Schedule(ctx, c, depth)
			if err != nil {
				return nil, false, err
			}
			n++
			if v != nil {
				f := Found[V]{Verdict: v, Index: n - 1, At: time.Since(o.Start)}
				if o.StopAtFirst {
					return []Found[V]{f}, false, nil
				}
				if k, isNew := o.Key(v); isNew && !seen[k] {
					seen[k] = true
					fs = append(fs, f)
				}
			}
			var more bool
			if prefix, more = c.Next(); !more {
				break
			}
		}
	}
	return fs, true, nil
}
