package explore

import (
	"context"
	"time"
)

// randomSearch runs the random schedules of Options.Seed on workers
// (search.Run, search.RunRandom). A shard i/N runs the indices i,
// i+N, i+2N... Without Options.Schedules the search runs within its
// Budget and keeps, of each distinct violation (foundKey) not known, the
// schedule of the lowest index, minimised after; with StopAtFirst it
// stops at the first violation and the violation of the lowest index is
// reported, the one a single worker finds. With Schedules, every index
// below it runs and every violation is minimised and reported once.
func (ex *explorer) randomSearch(ctx context.Context, workers []*explorer, res *Result) error {
	got, err := ex.search(ctx, workers, time.Now(), res)
	if err != nil {
		return err
	}
	var vs []*Violation
	for _, f := range got.Minimised {
		v := f.Verdict.Of
		v.FoundAfter, v.Schedules = f.At, f.Index+1
		vs = append(vs, v)
	}
	kept, err := ex.minimiseAll(ctx, got.Found)
	if err != nil {
		return err
	}
	res.Violations = ranked(append(kept, vs...))
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return nil
}

// sameSchedule is what makes a violation of a random search with
// Options.Schedules distinct: its invariant and its minimised schedule
// (search.Options.Same).
func sameSchedule(v *Violation) string { return v.Invariant + "\x00" + v.Seed }
