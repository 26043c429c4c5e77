package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// phase is a fault phase whose pilot fails (fails) or errs (pilotErr),
// whose schedules fail while they hold step 1, and whose random search
// errs with randomErr; calls logs what Faults asked of it.
type phase struct {
	fails               bool
	pilotErr, randomErr error
	calls               []string
	// draws are the pilot's first choices, and its index.
	draws []int
	index int
}

func (p *phase) Pilot(_ context.Context, c *Chooser, _ int) (*Verdict[string], error) {
	p.calls = append(p.calls, "pilot")
	p.index = c.Index
	p.draws = []int{c.Choose(10), c.Choose(10), c.Choose(10)}
	if p.pilotErr != nil || !p.fails {
		return nil, p.pilotErr
	}
	return &Verdict[string]{Of: "0,1,2", Invariant: "odd"}, nil
}

// Replay fails while the script holds the step of Rec 1.
func (p *phase) Replay(_ context.Context, script []schedule.Chosen) (*Verdict[string], error) {
	p.calls = append(p.calls, "replay")
	var recs []string
	for _, s := range script {
		recs = append(recs, string(rune('0'+s.It.Rec)))
	}
	if !slices.Contains(recs, "1") {
		return nil, nil
	}
	return &Verdict[string]{Of: strings.Join(recs, ","), Invariant: "odd"}, nil
}

func (p *phase) Ran(v *Verdict[string]) ([]schedule.Chosen, error) {
	var script []schedule.Chosen
	for _, r := range strings.Split(v.Of, ",") {
		script = append(script, schedule.Chosen{It: schedule.Item{Rec: int(r[0] - '0')}})
	}
	return script, nil
}

func (p *phase) Schedule(context.Context, *Chooser, int) (*Verdict[string], error) {
	return nil, errors.New("the fault phase runs its random schedules through Random")
}

func (p *phase) Random(context.Context) error {
	p.calls = append(p.calls, "random")
	return p.randomErr
}

// Faults runs the pilot seeded (Seed, 0) as schedule -1, minimises what
// it found, and runs the random search after it unless StopAtFirst
// ended the phase at the pilot; an error stops it where it came.
func TestFaultsRunsThePilotThenTheRandomSearch(t *testing.T) {
	const seed = 91
	rng := rand.New(rand.NewPCG(seed, 0))
	want := []int{rng.IntN(10), rng.IntN(10), rng.IntN(10)}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name           string
		p              *phase
		stopAtFirst    bool
		err            error
		pilot          string // the minimised verdict, "" none
		schedules      int
		random, replay bool
	}{
		{name: "nothing found", p: &phase{}, schedules: 1, random: true},
		{name: "found", p: &phase{fails: true}, pilot: "1", schedules: 1, random: true, replay: true},
		{name: "found, stop at first", p: &phase{fails: true}, stopAtFirst: true, pilot: "1", schedules: 1, replay: true},
		{name: "nothing found, stop at first", p: &phase{}, stopAtFirst: true, schedules: 1, random: true},
		{name: "pilot errs", p: &phase{fails: true, pilotErr: boom}, err: boom},
		{name: "random errs", p: &phase{randomErr: boom}, err: boom, schedules: 1, random: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Faults(t.Context(), tc.p, Fault{Seed: seed, Depth: 3, StopAtFirst: tc.stopAtFirst})
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if tc.p.index != -1 || !slices.Equal(tc.p.draws, want) {
				t.Errorf("pilot: schedule %d choosing %v, want schedule -1 choosing %v (seed (%d, 0))", tc.p.index, tc.p.draws, want, seed)
			}
			pilot := ""
			if got.Pilot != nil {
				pilot = got.Pilot.Verdict.Of
				if got.Pilot.Index != 0 || got.Pilot.At != got.After {
					t.Errorf("pilot's verdict at index %d after %v, want index 0 after the pilot's %v", got.Pilot.Index, got.Pilot.At, got.After)
				}
			}
			ran := slices.Contains(tc.p.calls, "random")
			if pilot != tc.pilot || got.Schedules != tc.schedules || got.Random != tc.random || ran != tc.random {
				t.Errorf("pilot %q, %d schedules, random %t (ran %t); want pilot %q, %d schedules, random %t", pilot, got.Schedules, got.Random, ran, tc.pilot, tc.schedules, tc.random)
			}
			if i := slices.Index(tc.p.calls, "replay"); (i >= 0) != tc.replay || (ran && i > slices.Index(tc.p.calls, "random")) {
				t.Errorf("calls %v: want the pilot, its minimising (%t), then the random search (%t)", tc.p.calls, tc.replay, tc.random)
			}
		})
	}
}
