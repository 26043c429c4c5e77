package search

import (
	"context"
	"time"
)

// Options are how one search at fixed bounds runs: depth-first
// (DepthFirst), or with Seed random (RunRandom: Index and Count its
// shard, Schedules to run every index below it); either until Deadline,
// checked between schedules, as Depth and StopAtFirst say. Key is a
// verdict's defect and whether it is new; Same, with Schedules, the
// defect of a minimised verdict, kept once.
type Options[V any] struct {
	Start, Deadline        time.Time
	Depth                  int
	StopAtFirst, LastFirst bool
	Seed                   int64
	Index, Count           int
	Schedules              int
	Key                    func(*Verdict[V]) (key string, isNew bool)
	Same                   func(*Verdict[V]) string
}

// A Result is what a search at fixed bounds ran and found.
type Result[V any] struct {
	// Found are the failing schedules to minimise, in the order the
	// search ran them (by index; depth-first: the serial order);
	// Minimised, with Schedules, the ones RunRandom minimised, each
	// defect (Options.Same) once, by index.
	Found, Minimised []Found[V]
	// Schedules, Pruned, Speculative, Cut and Exhausted are
	// DepthResult's, or RandomResult's (Pruned, Speculative and Cut 0).
	Schedules, Pruned, Speculative int
	Cut                            uint8
	Exhausted                      bool
}

// Run runs the search o asks for on workers. On an error the result
// still counts the schedules run, and holds nothing found.
func Run[W Runner[V], V any](ctx context.Context, workers []W, o Options[V]) (Result[V], error) {
	inBudget := func(ctx context.Context) bool { return ctx.Err() == nil && time.Now().Before(o.Deadline) }
	if o.Seed == 0 {
		got, err := DepthFirst(ctx, workers, Depth[V]{
			Start: o.Start, Depth: o.Depth, StopAtFirst: o.StopAtFirst, LastFirst: o.LastFirst, InBudget: inBudget, Key: o.Key,
		})
		res := Result[V]{Schedules: got.Schedules, Pruned: got.Pruned, Speculative: got.Speculative, Cut: got.Cut, Exhausted: got.Exhausted}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return res, err
		}
		res.Found = got.Found
		return res, nil
	}
	got, err := RunRandom(ctx, workers, Random[V]{
		Depth: o.Depth, Seed: o.Seed, Index: o.Index, Count: o.Count,
		Schedules: o.Schedules, StopAtFirst: o.StopAtFirst, InBudget: inBudget, Key: o.Key,
	})
	res := Result[V]{Schedules: got.Schedules, Exhausted: got.Exhausted}
	if err != nil {
		return res, err
	}
	if o.Schedules == 0 {
		res.Found = got.Found
		return res, nil
	}
	seen := map[string]bool{}
	for _, f := range got.Found {
		if k := o.Same(f.Verdict); !seen[k] {
			seen[k] = true
			res.Minimised = append(res.Minimised, f)
		}
	}
	return res, nil
}
