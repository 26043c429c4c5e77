package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"context"
)

// A reconciler's delete of what a reconciler of the schedule created,
// after a stale read in the deleting step or a crash (a restart or a
// leader change) since the creation, is judged after the schedule
// against the same schedule with every read fresh and no crash: its
// chosen steps in the same order, the lags of their cached reads 0, its
// crashes and the delivery of a write left in flight taken out. If that
// schedule deletes the same object (the same creation of its name: a
// crash taken out moves the creation to an earlier step, a delivery
// taken out renumbers every later step) from fresh reads, in the process
// that created it, at the same chosen step or an earlier one, or both
// schedules delete it in their drains, the state
// asked for the delete, and neither the stale read nor the crash made
// it: it passes (JobSet deletes the Jobs of a failed attempt whether or
// not its Job list lags, or a leader change came between), and its
// violation is taken back. Otherwise it stands: a delete the fresh
// schedule makes at a later chosen step, or only in its drain, is one
// made too early. Two drains' steps are not compared: each round of a
// drain runs every reconciler on every object, so a crash, which takes
// a write out and adds a restart, shifts the drain's steps (Katib's
// Trial controller deletes a finished Trial's Job one step later
// without the crash: TestOwnDeleteInBothDrains).

// chosenPos is the place of the step after chosen among a schedule's
// steps but the deliveries of writes in flight, which a fresh schedule
// without faults does not have: the same step's in both.
func chosenPos(chosen []scriptStep) int {
	n := 0
	for _, c := range chosen {
		if !c.It.Deliver {
			n++
		}
	}
	return n
}

// The same fresh schedule judges an observedGeneration absent at
// generation 1 in a steady state after a stale read, a crash or a write
// delivered late (judge.ObservedGenerationStuck): if the fresh
// schedule's object has the field, the operator sets it and the faults left it absent, and the
// violation stands; if not, the operator does not set it there from fresh
// reads either (a kind whose type has the field unused), and it is taken
// back.

// judgeByFreshSchedule judges r's suspect deletes, absent
// observedGenerations and lost writes (lostjudge.go) against the same
// schedule with every read fresh, r having ended: without its faults for
// the first two; for a lost write, with all of them but the stale
// reads of the step that wrote it. The fresh schedules
// count in no search's schedules.
func (ex *explorer) judgeByFreshSchedule(ctx context.Context, r *run) error {
	if r.creations.own.Suspects() == 0 && len(r.checks.ogSuspects) == 0 && len(r.checks.lwSuspects) == 0 || ctx.Err() != nil {
		return nil
	}
	if r.creations.own.Suspects() > 0 || len(r.checks.ogSuspects) > 0 {
		fresh, err := ex.freshSchedule(ctx, freshScript(r))
		if err != nil {
			return err
		}
		for _, msg := range r.creations.own.Retracted(fresh.deletes) {
			r.trace.retract(InvariantOwnDelete, msg)
		}
		for _, o := range r.checks.ogSuspects {
			if !fresh.og[o.key] {
				r.trace.retract(InvariantObservedGenerationStuck, o.msg)
			}
		}
	}
	for _, w := range r.checks.lwSuspects {
		// The lost write's judge keeps every fault of the schedule but
		// the stale reads of the step that wrote it (lostjudge.go).
		fresh, err := ex.freshSchedule(ctx, stepFreshScript(r, w.at.pos))
		if err != nil {
			return err
		}
		if !fresh.faulted || w.sameAs(fresh.writes[w.at]) {
			for _, msg := range w.msgs {
				r.trace.retract(InvariantLostWrite, msg)
			}
		}
	}
	r.creations.own.Judged()
	r.checks.ogSuspects, r.checks.lwSuspects = nil, nil
	if r.trace.failed == nil && r.track != nil {
		r.track.Broke = false
	}
	return nil
}

// freshScript is r's chosen steps with every cached read fresh (lags
// 0), the crashes and the deliveries of writes left in flight taken out.
func freshScript(r *run) []scriptStep {
	var script []scriptStep
	for i, s := range r.trace.chosen {
		if !r.trace.steps[i].Drain && !s.It.Deliver {
			script = append(script, scriptStep{It: s.It, Lags: []int{}})
		}
	}
	return script
}

// stepFreshScript is r's chosen steps up to the one at pos (chosenPos),
// each with its faults (its stale reads, its crash, the deliveries of
// writes in flight) but that one's cached reads, all fresh: the same
// schedule but what that step's stale reads did.
func stepFreshScript(r *run, pos int) []scriptStep {
	var script []scriptStep
	for i, s := range r.trace.chosen {
		if r.trace.steps[i].Drain {
			break
		}
		if s.It.Deliver {
			script = append(script, s)
			continue
		}
		if pos == 0 {
			script = append(script, scriptStep{It: s.It, Lags: []int{}, Crash: s.Crash})
			break
		}
		pos--
		script = append(script, s)
	}
	return script
}

// freshVerdict is what the judgement needs of a fresh schedule: its
// deletes of own creations that passed, the objects whose newest
// version has a status.observedGeneration, and what its chosen steps'
// writes made (lostjudge.go); faulted, that it made each of its
// script's faults where the script has it (each crash after the same
// write, of the same kind, with as many writes left in flight, and a
// write delivered at each delivery): a script whose faults the fresh
// reads do not reproduce is no schedule to compare with.
type freshVerdict struct {
	deletes judge.Deletes
	og      map[book.Key]bool
	writes  map[writeAt]map[string]any
	faulted bool
}

// maxFresh bounds the fresh schedules an explorer keeps.
const maxFresh = 4096

// freshSchedule runs script (chosen steps, every read fresh, no crash)
// and drains, or returns what it did when it ran before in this search:
// many schedules differ only in their lags and crashes, and an operator
// whose type has status.observedGeneration unused gives each of them an
// absent one to judge (twice the schedules without the memo).
func (ex *explorer) freshSchedule(ctx context.Context, script []scriptStep) (*freshVerdict, error) {
	key := ex.setup.formatSeed(script)
	if v, ok := ex.fresh[key]; ok {
		return v, nil
	}
	runs, last := ex.runs, ex.last
	fresh, err := ex.replayRun(ctx, script)
	ex.runs, ex.last = runs, last
	if err != nil {
		return nil, err
	}
	if fresh.err != nil {
		return nil, fresh.err
	}
	v := &freshVerdict{deletes: fresh.creations.own.FreshDeletes(), og: map[book.Key]bool{}, writes: fresh.checks.written,
		faulted: madeFaults(fresh, script)}
	for _, k := range fresh.book.Keys() {
		if judge.SetsObservedGeneration(fresh.book, k) {
			v.og[k] = true
		}
	}
	if ctx.Err() != nil {
		return v, nil
	}
	if ex.fresh == nil || len(ex.fresh) >= maxFresh {
		ex.fresh = map[string]*freshVerdict{}
	}
	ex.fresh[key] = v
	return v, nil
}

// madeFaults reports that r, run from script, made each of script's
// faults where script has it.
func madeFaults(r *run, script []scriptStep) bool {
	if len(r.trace.chosen) < len(script) {
		return false
	}
	delivered := 0
	for i, s := range script {
		if s.It.Deliver {
			delivered++
		}
		if r.trace.chosen[i].It != s.It || r.trace.chosen[i].Crash != s.Crash {
			return false
		}
	}
	return r.held.in.Delivered >= delivered
}
