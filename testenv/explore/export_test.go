package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"

	"context"
	"fmt"
	"strings"
	"time"
)

// InFlightSchedule is what one schedule of a search did with the old
// leader's writes in flight (Options.InFlightWrite, InFlightWrites).
type InFlightSchedule struct {
	// Held: a write was held in flight. Delivered counts the deliveries;
	// At are their step numbers and Answers the server's answers.
	Held      bool
	Delivered int
	At        []int
	Answers   []string
	// HeldWrites is how many writes were held (Options.InFlightWrites);
	// Order, which of them each delivery delivered (1: the first held).
	HeldWrites int
	Order      []int
	// Seed is the schedule's chosen steps; Violated, that it broke an
	// invariant.
	Seed     string
	Violated bool
}

// RunInFlight is Run; it also returns, for every schedule the search ran
// to its end (pruned ones aside), what became of the write in flight.
func RunInFlight(ctx context.Context, s Scenario, o Options) (*Result, []InFlightSchedule, error) {
	var out []InFlightSchedule
	res, err := runVisiting(ctx, s, o, func(ex *explorer, r *run) {
		f := InFlightSchedule{Held: r.Held.In.Holding(), Delivered: r.Held.In.Delivered, HeldWrites: r.Held.In.Count(), Violated: r.Trace.Failed != nil}
		var script []scriptStep
		for i, c := range r.Trace.Chosen {
			if !r.Trace.Steps[i].Drain {
				script = append(script, c)
			}
		}
		f.Seed = ex.setup.formatSeed(script)
		for _, st := range r.Trace.Steps {
			if !strings.HasPrefix(st.Reconciler, "in-flight write ") || len(st.Writes) == 0 {
				continue
			}
			f.At = append(f.At, st.Index)
			nth := 1
			fmt.Sscanf(st.Reconciler, "in-flight write %d of", &nth) //nolint:errcheck // "write of": the first
			f.Order = append(f.Order, nth)
			for _, w := range st.Writes {
				f.Answers = append(f.Answers, w.Answer)
			}
		}
		out = append(out, f)
	})
	return res, out, err
}

// RunSteps is Run; it also returns the steps of every schedule the search
// ran to its end (pruned ones aside), replays of the minimiser included.
func RunSteps(ctx context.Context, s Scenario, o Options) (*Result, [][]Step, error) {
	var out [][]Step
	res, err := runVisiting(ctx, s, o, func(_ *explorer, r *run) { out = append(out, r.Trace.Steps) })
	return res, out, err
}

// RunLastFirst is Run with a parallel depth-first search that starts,
// of the tasks it may start, the latest in the serial order first: every
// state is met first by the schedule the serial search runs last.
func RunLastFirst(ctx context.Context, s Scenario, o Options) (*Result, error) {
	return runHooked(ctx, s, o, hooks{knobs: testKnobs{lastFirst: true}})
}

// RunWindowsOfOneReconcile is Run with each stale window ended with its
// reconcile, as at the default bounds, whatever the bounds.
func RunWindowsOfOneReconcile(ctx context.Context, s Scenario, o Options) (*Result, error) {
	return runHooked(ctx, s, o, hooks{knobs: testKnobs{oneReconcile: true}})
}

// RunFaultPhaseSteps runs the fault phase alone, as a search with o
// would after its deepening, and returns the steps of every schedule it
// ran to its end (the minimiser's replays included).
func RunFaultPhaseSteps(ctx context.Context, s Scenario, o Options) (*Result, [][]Step, error) {
	var out [][]Step
	res, err := runLevel(ctx, s, faultOptions(o, o.withDefaults().Budget), hooks{place: place{faults: true}, knobs: testKnobs{visit: func(_ *explorer, r *run) { out = append(out, r.Trace.Steps) }}})
	return res, out, err
}

// DefaultProgressEvery is Options.ProgressEvery's default.
const DefaultProgressEvery = defaultProgressEvery

// RunTicked is Run whose progress lines come at the ticks of tick, not
// every Options.ProgressEvery; visit, if set, sees each schedule run to
// its end.
func RunTicked(ctx context.Context, s Scenario, o Options, tick <-chan time.Time, visit func()) (*Result, error) {
	h := hooks{knobs: testKnobs{tick: tick}}
	if visit != nil {
		h.knobs.visit = func(*explorer, *run) { visit() }
	}
	return runHooked(ctx, s, o, h)
}

// AuditLine is the linter's finding for the call site at, a frame of fn
// in file (callsite.Audit after the frame was seen).
func AuditLine(ctx context.Context, bin, file, fn string, line int) (string, error) {
	return callsite.Audit(ctx, bin, callsite.Remember(file, fn, line))
}

// ViolationKey is what makes v distinct in a report (violationKey).
func ViolationKey(v *Violation) string { return violationKey(v) }
