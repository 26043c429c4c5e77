package explore

import (
	"context"
	"sort"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// randomSearch runs the random schedules of Options.Seed on workers
// (search.RunRandom). A shard i/N runs the indices i, i+N, i+2N...
// Without Options.Schedules the search runs within its Budget and keeps,
// of each distinct violation (foundKey) not known, the schedule of the
// lowest index, minimised after; with StopAtFirst it stops at the first
// violation and the violation of the lowest index is reported, the one a
// single worker finds. With Schedules, every index below it runs and
// every violation is minimised and reported once.
func (ex *explorer) randomSearch(ctx context.Context, workers []*explorer, res *Result) error {
	o := ex.o
	got, err := search.RunRandom(ctx, replayers(workers), search.Random[*Violation]{
		Depth: o.Depth, Seed: o.Seed, Index: o.Shard.Index, Count: o.Shard.Count,
		Schedules: o.Schedules, StopAtFirst: o.StopAtFirst,
		InBudget: ex.inBudget,
		Key:      ex.newDefect,
	})
	res.Schedules += got.Schedules
	res.Exhausted = got.Exhausted
	if err != nil {
		return err
	}
	var fs []search.Found[*Violation]
	var vs []*Violation
	seen := map[string]bool{}
	for _, f := range got.Found {
		if o.Schedules == 0 {
			fs = append(fs, f)
			continue
		}
		v := f.Verdict.Of
		v.FoundAfter, v.Schedules = f.At, f.Index+1
		if k := v.Invariant + "\x00" + v.Seed; !seen[k] {
			seen[k] = true
			vs = append(vs, v)
		}
	}
	sort.SliceStable(fs, func(a, b int) bool { return fs[a].Index < fs[b].Index })
	kept, err := ex.minimiseAll(ctx, fs)
	if err != nil {
		return err
	}
	res.Violations = ranked(append(kept, vs...))
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return nil
}

// newDefect is v's foundKey and whether an earlier level of the
// deepening did not find it (ex.known).
func (ex *explorer) newDefect(v *search.Verdict[*Violation]) (string, bool) {
	k := foundKey(v.Of)
	return k, !ex.known[k]
}
