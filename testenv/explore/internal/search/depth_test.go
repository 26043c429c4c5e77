package search

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// toy is a space of schedules whose state is the sum and the count of
// the choices made: equal states have equal futures (the widths of the
// choices ahead, and the failures), as the explorer's state hash
// assumes, so that schedules meet states seen before and are pruned.
type toy struct{ mod int }

func (toy) width(taken []int) int { return 2 + sum(taken)%2 }

// fails is the invariant the state breaks, if it breaks one.
func (t toy) fails(taken []int) string {
	if s := sum(taken); len(taken) >= 2 && s%t.mod == 1 {
		return fmt.Sprintf("odd %d", s%3)
	}
	return ""
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// hash is the state before chosen step d of a schedule of depth steps.
func hash(taken []int, depth, d int) uint64 {
	return uint64(sum(taken)*64 + len(taken) + 4096*(depth-d))
}

// run runs the schedule c chooses of up to depth steps; prune is asked
// before each chosen step past c's prefix, and failed told the step of
// the first failure. It returns what it broke first, and whether it was
// pruned.
func (t toy) run(c *Chooser, depth int, prune func(d int) bool, failed func(d int)) (*Verdict[string], bool) {
	var v *Verdict[string]
	for d := 0; d < depth; d++ {
		if len(c.Taken) >= len(c.Prefix) && prune(d) {
			return v, true
		}
		c.Choose(t.width(c.Taken))
		if inv := t.fails(c.Taken); inv != "" && v == nil {
			v = &Verdict[string]{Of: fmt.Sprint(c.Taken), Invariant: inv}
			failed(d)
		}
	}
	return v, false
}

// toyRunner runs the toy's schedules for DepthFirst and RunRandom.
type toyRunner struct{ toy }

func (toyRunner) Replay(context.Context, []schedule.Chosen) (*Verdict[string], error) {
	return nil, nil
}
func (toyRunner) Ran(*Verdict[string]) ([]schedule.Chosen, error) { return nil, nil }

func (r toyRunner) Schedule(_ context.Context, c *Chooser, depth int) (*Verdict[string], error) {
	vis := c.Visit
	if vis == nil { // a random schedule: nothing pruned
		v, _ := r.run(c, depth, func(int) bool { return false }, func(int) {})
		return v, nil
	}
	prune := func(d int) bool {
		if vis.Prune(func() uint64 { return hash(c.Taken, depth, d) }, c.Taken, d) {
			vis.PrunedAt = d
			return true
		}
		return false
	}
	v, _ := r.run(c, depth, prune, vis.Failed)
	return v, nil
}

// serial is the serial depth-first search as the explorer ran it before
// the search moved to internal/search: prefixes in turn (Chooser.Next),
// one map of the states seen in time, the first schedule of each
// invariant.
func serial(t toy, depth int, stopAtFirst bool) DepthResult[string] {
	var res DepthResult[string]
	seen := map[uint64]bool{}
	keys := map[string]bool{}
	for dep := 1; dep <= depth; dep++ {
		var prefix []int
		for {
			c := &Chooser{Prefix: prefix}
			prune := func(d int) bool {
				h := hash(c.Taken, dep, d)
				if seen[h] {
					return true
				}
				seen[h] = true
				return false
			}
			v, pruned := t.run(c, dep, prune, func(int) {})
			res.Schedules++
			if pruned {
				res.Pruned++
			}
			if v != nil && !keys[v.Invariant] {
				res.Found = append(res.Found, Found[string]{Verdict: v, Index: res.Schedules - 1})
				if stopAtFirst {
					return res
				}
				keys[v.Invariant] = true
			}
			var more bool
			if prefix, more = c.Next(); !more {
				break
			}
		}
	}
	res.Exhausted = true
	return res
}

func summary(r DepthResult[string]) string {
	s := fmt.Sprintf("schedules %d, pruned %d, exhausted %t", r.Schedules, r.Pruned, r.Exhausted)
	for _, f := range r.Found {
		s += fmt.Sprintf("; %s at %s after %d", f.Verdict.Invariant, f.Verdict.Of, f.Index+1)
	}
	return s
}

// TestDepthFirstIsTheSerialSearchOnAnyWorkers: on one worker, on one
// that starts the latest task first (every state is met first in time by
// the task the serial order meets it with last: a table of states that
// kept the first in time fails here), and on three workers either way,
// DepthFirst runs the schedules the serial search runs, prunes where it
// prunes and finds what it finds, after as many schedules.
func TestDepthFirstIsTheSerialSearchOnAnyWorkers(t *testing.T) {
	for _, mod := range []int{2, 3, 5} {
		for _, stop := range []bool{false, true} {
			tc := toy{mod: mod}
			want := summary(serial(tc, 4, stop))
			for _, w := range []struct {
				n         int
				lastFirst bool
			}{{1, false}, {1, true}, {3, false}, {3, true}} {
				workers := make([]toyRunner, w.n)
				for i := range workers {
					workers[i] = toyRunner{tc}
				}
				got, err := DepthFirst(t.Context(), workers, Depth[string]{
					Start: time.Now(), Depth: 4, StopAtFirst: stop, LastFirst: w.lastFirst,
					InBudget: func(context.Context) bool { return true },
					Key:      func(v *Verdict[string]) (string, bool) { return v.Invariant, true },
				})
				if err != nil {
					t.Fatal(err)
				}
				if s := summary(got); s != want {
					t.Errorf("mod %d, StopAtFirst %t, %d workers (latest first %t):\n got %s\nwant %s", mod, stop, w.n, w.lastFirst, s, want)
				}
			}
			t.Logf("mod %d, StopAtFirst %t: %s", mod, stop, want)
		}
	}
}
