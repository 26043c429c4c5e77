package search

import (
	"context"
	"math/rand/v2"
	"time"
)

// The fault phase (the root's faults.go says when a search ends with it,
// internal/faults has its odds) is a pilot schedule, then random
// schedules whose faults scale by what the pilot counted. Faults runs
// the two in that order; the root keeps what each found.

// A Phase is the fault phase's run, the root's: a Runner (the pilot's
// verdict is minimised through it), the pilot and the random search.
type Phase[V any] interface {
	Runner[V]
	// Pilot runs the pilot schedule c chooses, of up to depth chosen
	// steps, then drains, counting what the random schedules' faults
	// scale by, and gives its verdict if it broke an invariant no
	// earlier search found; nil if not.
	Pilot(ctx context.Context, c *Chooser, depth int) (*Verdict[V], error)
	// Random runs the random schedules, after the pilot; it keeps what
	// they found, counted from its own start.
	Random(ctx context.Context) error
}

// Fault is how the fault phase runs: its pilot chooses from a source
// seeded with (Seed, 0), as schedule -1 (its name says "pilot"), of up to
// Depth chosen steps; StopAtFirst ends the phase at the pilot if the
// pilot found a violation.
type Fault struct {
	Seed        uint64
	Depth       int
	StopAtFirst bool
}

// A FaultResult is what the fault phase ran before its random search,
// and whether that ran.
type FaultResult[V any] struct {
	// Pilot is the pilot's verdict, minimised, at Index 0 and At the
	// pilot's time; nil if it found nothing new.
	Pilot *Found[V]
	// Schedules counts the pilot once it ran without an error.
	Schedules int
	// After is the pilot's time: what Random found comes one schedule
	// and After later than Random counted it.
	After time.Duration
	// Random reports that the random search ran (without an error or
	// with one: Faults returns it).
	Random bool
}

// Faults runs the fault phase o asks for on p: the pilot, its verdict
// minimised, then, unless o.StopAtFirst and the pilot found a verdict,
// the random search. On an error the result holds what ran before it.
func Faults[V any](ctx context.Context, p Phase[V], o Fault) (FaultResult[V], error) {
	var res FaultResult[V]
	start := time.Now()
	v, err := p.Pilot(ctx, &Chooser{Rng: rand.New(rand.NewPCG(o.Seed, 0)), Index: -1}, o.Depth)
	if err != nil {
		return res, err
	}
	res.Schedules = 1
	res.After = time.Since(start)
	if v != nil {
		best, err := Minimise(ctx, p, v)
		if err != nil {
			return res, err
		}
		res.Pilot = &Found[V]{Verdict: best, Index: 0, At: res.After}
		if o.StopAtFirst {
			return res, nil
		}
	}
	res.Random = true
	return res, p.Random(ctx)
}
