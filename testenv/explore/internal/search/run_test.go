package search

import (
	"testing"
	"time"
)

// Run without Seed is the depth-first search; with Seed and Schedules
// it runs every index below Schedules and keeps one failing schedule of
// each defect (Options.Same), the lowest index, none left to minimise;
// past its Deadline it starts nothing.
func TestRunKeepsOneSchedulePerDefect(t *testing.T) {
	tc := toy{mod: 2}
	workers := []toyRunner{{tc}, {tc}}
	key := func(v *Verdict[string]) (string, bool) { return v.Invariant, true }
	o := Options[string]{Start: time.Now(), Deadline: time.Now().Add(time.Hour), Depth: 4, Key: key}
	dfs, err := Run(t.Context(), workers, o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(DepthResult[string]{Found: dfs.Found, Schedules: dfs.Schedules, Pruned: dfs.Pruned, Exhausted: dfs.Exhausted}), summary(serial(tc, 4, false)); got != want {
		t.Errorf("without Seed:\n got %s\nwant %s", got, want)
	}

	o.Seed, o.Schedules = 7, 40
	o.Same = func(v *Verdict[string]) string { return v.Invariant }
	rnd, err := Run(t.Context(), workers, o)
	if err != nil {
		t.Fatal(err)
	}
	all, err := RunRandom(t.Context(), workers, Random[string]{Depth: 4, Seed: 7, Schedules: 40, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	lowest := map[string]int{}
	for _, f := range all.Found {
		if i, ok := lowest[f.Verdict.Invariant]; !ok || f.Index < i {
			lowest[f.Verdict.Invariant] = f.Index
		}
	}
	if len(lowest) < 2 || len(rnd.Found) != 0 || len(rnd.Minimised) != len(lowest) || rnd.Schedules != 40 || !rnd.Exhausted {
		t.Fatalf("with Seed and Schedules: %d found, %d kept, %d schedules (exhausted %t); want %d defects of %d failing schedules kept, none found, 40 schedules exhausted",
			len(rnd.Found), len(rnd.Minimised), rnd.Schedules, rnd.Exhausted, len(lowest), len(all.Found))
	}
	for _, f := range rnd.Minimised {
		if f.Index != lowest[f.Verdict.Invariant] {
			t.Errorf("%s kept at index %d, want its lowest, %d", f.Verdict.Invariant, f.Index, lowest[f.Verdict.Invariant])
		}
	}

	o.Schedules, o.Deadline = 0, time.Now().Add(-time.Second)
	late, err := Run(t.Context(), workers, o)
	if err != nil || late.Schedules != 0 {
		t.Errorf("past the deadline: %d schedules, %v; want none", late.Schedules, err)
	}
}
