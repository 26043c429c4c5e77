package search

import (
	"context"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// A Verdict is what a replayed schedule broke, as the search compares it:
// the first violation's invariant, the object it is about and its rank,
// and the names of all it broke. Of is the root's own record of it.
type Verdict[V any] struct {
	Of        V
	Invariant string
	Object    string
	// Rank orders verdicts, most severe first (1).
	Rank  int
	Names map[string]bool
}

// A Runner runs one schedule for the search.
type Runner[V any] interface {
	// Replay runs script's chosen steps, then drains, and gives the
	// schedule's verdict: nil if it broke no invariant.
	Replay(ctx context.Context, script []schedule.Chosen) (*Verdict[V], error)
	// Ran is the schedule v's replay ran, as its seed names it: a replay
	// may take fewer steps or reads than it was given.
	Ran(v *Verdict[V]) ([]schedule.Chosen, error)
	// Schedule runs the schedule c chooses, of up to depth chosen steps,
	// then drains, and gives its verdict: nil if it broke no invariant.
	// The choices it made are c's after.
	Schedule(ctx context.Context, c *Chooser, depth int) (*Verdict[V], error)
}

// Minimise drops chosen steps, crashes and stale reads of best's schedule
// while the same invariants still break, first on the same object, at a
// rank as severe, and returns the smallest verdict found.
func Minimise[V any](ctx context.Context, run Runner[V], best *Verdict[V]) (*Verdict[V], error) {
	script, err := run.Ran(best)
	if err != nil {
		return nil, err
	}
	try := func(cand []schedule.Chosen) (bool, error) {
		v, err := run.Replay(ctx, cand)
		if err != nil || v == nil || v.Invariant != best.Invariant || v.Object != best.Object || v.Rank > best.Rank {
			return false, err // another object's, or less severe
		}
		for name := range best.Names {
			if !v.Names[name] {
				return false, nil
			}
		}
		// Go on from the schedule as it ran: a replay bounds each stale
		// read by what the cache had already served.
		ran, err := run.Ran(v)
		if err != nil {
			return false, err
		}
		best, script = v, ran
		return true, nil
	}
	for changed := true; changed; {
		changed = false
		for i := range script {
			cand := append(append([]schedule.Chosen(nil), script[:i]...), script[i+1:]...)
			if ok, err := try(cand); err != nil {
				return nil, err
			} else if ok {
				changed = true
				break
			}
		}
	}
	for i := 0; i < len(script); i++ {
		if script[i].Crash.Kind == schedule.CrashNone {
			continue
		}
		// No crash; failing that, for writes in flight, a leader change
		// without them, then fewer of them. The deliveries of the writes
		// taken out go too.
		c := script[i].Crash
		cand := schedule.WithoutDeliveries(script, i, 0)
		cand[i].Crash = schedule.Crash{}
		ok, err := try(cand)
		if err != nil {
			return nil, err
		}
		if !ok && c.Kind == schedule.CrashInFlight {
			cand = schedule.WithoutDeliveries(script, i, 0)
			cand[i].Crash = schedule.Crash{At: c.At, Kind: schedule.CrashFailover}
			ok, err = try(cand)
			if err != nil {
				return nil, err
			}
		}
		for n := 1; !ok && c.Kind == schedule.CrashInFlight && n < c.InFlight; n++ {
			cand = schedule.WithoutDeliveries(script, i, n)
			cand[i].Crash.InFlight = n
			if ok, err = try(cand); err != nil {
				return nil, err
			}
		}
	}
	// A successful try swaps in the schedule as it ran, whose steps may
	// read fewer times (a fresh read takes another branch): both bounds
	// are the script's now, not the one the loop started with.
	for i := 0; i < len(script); i++ {
		for j := 0; j < len(script[i].Lags); j++ {
			if script[i].Lags[j] == 0 {
				continue
			}
			cand := append([]schedule.Chosen(nil), script...)
			cand[i].Lags = append([]int(nil), cand[i].Lags...)
			cand[i].Lags[j] = 0
			if _, err := try(cand); err != nil {
				return nil, err
			}
		}
	}
	return best, nil
}
