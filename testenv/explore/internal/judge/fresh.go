package judge

import (
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// A reconciler's delete of what a reconciler of the schedule created,
// after a stale read in the deleting step or a crash (a restart or a
// leader change) since the creation, is judged after the schedule
// against the same schedule with every read fresh and no crash: its
// chosen steps in the same order, the lags of their cached reads 0, its
// crashes and the delivery of a write left in flight taken out
// (FreshScript). If that schedule deletes the same object (the same
// creation of its name: a crash taken out moves the creation to an
// earlier step, a delivery taken out renumbers every later step) from
// fresh reads, in the process that created it, at the same chosen step
// or an earlier one, or both schedules delete it in their drains, the
// state asked for the delete, and neither the stale read nor the crash
// made it: it passes (JobSet deletes the Jobs of a failed attempt
// whether or not its Job list lags, or a leader change came between),
// and its violation is taken back. Otherwise it stands: a delete the
// fresh schedule makes at a later chosen step, or only in its drain, is
// one made too early. Two drains' steps are not compared: each round of
// a drain runs every reconciler on every object, so a crash, which
// takes a write out and adds a restart, shifts the drain's steps
// (Katib's Trial controller deletes a finished Trial's Job one step
// later without the crash: TestOwnDeleteInBothDrains).
//
// The same fresh schedule judges an observedGeneration absent at
// generation 1 in a steady state after a stale read, a crash or a write
// delivered late (ObservedGenerationStuck): if the fresh schedule's
// object has the field, the operator sets it and the faults left it
// absent, and the violation stands; if not, the operator does not set it
// there from fresh reads either (a kind whose type has the field
// unused), and it is taken back.

// ChosenPos is the place of the step after chosen among a schedule's
// steps but the deliveries of writes in flight, which a fresh schedule
// without faults does not have: the same step's in both.
func ChosenPos(chosen []schedule.Chosen) int {
	n := 0
	for _, c := range chosen {
		if !c.It.Deliver {
			n++
		}
	}
	return n
}

// Fresh is what the judgement needs of a fresh schedule: its deletes of
// own creations that passed (deletes) and all of them (deleted), the
// objects whose newest version has a status.observedGeneration, and what
// its chosen steps' writes made (lostsuspect.go); faulted, that it made
// each of its script's faults where the script has it (MadeFaults): a
// script whose faults the fresh reads do not reproduce is no schedule to
// compare with.
type Fresh struct {
	deletes, deleted Deletes
	og               map[book.Key]bool
	writes           map[WriteAt]map[string]any
	faulted          bool
}

// Fresh is what c's schedule, run as a fresh one, gives the judgement of
// another; faulted says it made its script's faults (MadeFaults).
func (c *Checks) Fresh(faulted bool) *Fresh {
	v := &Fresh{deletes: c.own.FreshDeletes(), deleted: c.own.Deleted(), og: map[book.Key]bool{}, writes: c.written, faulted: faulted}
	for _, k := range c.book.Keys() {
		if SetsObservedGeneration(c.book, k) {
			v.og[k] = true
		}
	}
	return v
}

// Suspects reports that c kept a violation to judge after the schedule.
func (c *Checks) Suspects() bool {
	return c.own.Suspects() > 0 || len(c.ogSuspects) > 0 || len(c.lwSuspects) > 0
}

// JudgeAfter judges c's suspect deletes, absent observedGenerations and
// lost writes against the same schedule with every read fresh, the
// schedule having ended, and retracts those it takes back: without its
// faults for the first two (fresh, FreshScript's); for a lost write,
// with all of them but the stale reads of the step that wrote it
// (freshStep(pos), StepFreshScript's).
func (c *Checks) JudgeAfter(fresh func() (*Fresh, error), freshStep func(pos int) (*Fresh, error)) error {
	if c.own.Suspects() > 0 || len(c.ogSuspects) > 0 {
		f, err := fresh()
		if err != nil {
			return err
		}
		retracted := map[string]bool{}
		for _, msg := range c.own.Retracted(f.deletes) {
			retracted[msg] = true
			c.trace.Retract(NameOwnDelete, msg)
		}
		// A delete after a stale read of its own step: the same schedule
		// with that step's reads fresh (every other fault kept).
		for _, pos := range c.own.StaleSteps() {
			f, err := freshStep(pos)
			if err != nil {
				return err
			}
			if !f.faulted {
				continue
			}
			for _, msg := range c.own.RetractedByStep(pos, f.deletes) {
				if !retracted[msg] {
					retracted[msg] = true
					c.trace.Retract(NameOwnDelete, msg)
				}
			}
		}
		for _, o := range c.ogSuspects {
			if !f.og[o.key] {
				c.trace.Retract(NameObservedGenerationStuck, o.msg)
			}
		}
	}
	for _, w := range c.lwSuspects {
		// The lost write's judge keeps every fault of the schedule but
		// the stale reads of the step that wrote it (lostsuspect.go).
		f, err := freshStep(w.at.pos)
		if err != nil {
			return err
		}
		for _, l := range w.lost {
			// differ: the leaves where the fresh write differs so,
			// named in the note (the time-like fields, not the lost).
			d, differ := w.differs(l, f.writes[w.at])
			switch {
			case !f.faulted || d == book.Same:
				c.trace.Retract(NameLostWrite, l.Message)
			case d == book.TimesOnly && !l.TimeOnly && !l.OrderOnly:
				c.trace.TimeOnly(NameLostWrite, l.Message,
					" (a fresh read would have sent the same values but for time-like fields: "+strings.Join(differ, ", ")+")")
			case d == book.OrderOnly && !l.TimeOnly && !l.OrderOnly:
				// An atomic list's order is part of what the server
				// stored: the loss stands, but no decision was lost.
				c.trace.OrderOnly(NameLostWrite, l.Message,
					" (a fresh read would have sent the same items in another order: "+strings.Join(differ, ", ")+")")
			}
		}
	}
	c.own.Judged()
	c.ogSuspects, c.lwSuspects = nil, nil
	return nil
}

// FreshScript is a schedule's chosen steps (drain(i): the step at i was
// the drain's) with every cached read fresh (lags 0), the crashes and
// the deliveries of writes left in flight taken out.
func FreshScript(chosen []schedule.Chosen, drain func(i int) bool) []schedule.Chosen {
	return itemsOnly(chosen, drain, false)
}

// NoCrashScript is a schedule's chosen steps (drain as FreshScript's)
// with their stale reads, the crashes and the deliveries of writes left
// in flight taken out: what the schedule does but for its crashes.
func NoCrashScript(chosen []schedule.Chosen, drain func(i int) bool) []schedule.Chosen {
	return itemsOnly(chosen, drain, true)
}

// itemsOnly is chosen's steps before drain's, but the deliveries of
// writes in flight, each its item alone (no crash), with its stale reads
// when lags, else every read fresh.
func itemsOnly(chosen []schedule.Chosen, drain func(i int) bool, lags bool) []schedule.Chosen {
	var script []schedule.Chosen
	for i, s := range chosen {
		if drain(i) || s.It.Deliver {
			continue
		}
		c := schedule.Chosen{It: s.It, Lags: []int{}}
		if lags {
			c.Lags = s.Lags
		}
		script = append(script, c)
	}
	return script
}

// JudgeCrashOnly judges c's kept deletes whose only suspicion is a crash
// since their creation against the same schedule with its stale reads
// kept and its crashes taken out (noCrash, NoCrashScript's), before
// JudgeAfter: those it takes back (Creations.RetractCrashOnly) are
// judged no more. A schedule that does not make its script's faults
// judges nothing.
func (c *Checks) JudgeCrashOnly(noCrash func() (*Fresh, error)) error {
	if !c.own.CrashOnly() {
		return nil
	}
	f, err := noCrash()
	if err != nil {
		return err
	}
	if !f.faulted {
		return nil
	}
	for _, msg := range c.own.RetractCrashOnly(f.deleted) {
		c.trace.Retract(NameOwnDelete, msg)
	}
	return nil
}

// StepFreshScript is a schedule's chosen steps (drain as FreshScript's)
// up to the one at pos (ChosenPos), each with its faults (its stale
// reads, its crash, the deliveries of writes in flight) but that one's
// cached reads, all fresh: the same schedule but what that step's stale
// reads did.
func StepFreshScript(chosen []schedule.Chosen, drain func(i int) bool, pos int) []schedule.Chosen {
	var script []schedule.Chosen
	for i, s := range chosen {
		if drain(i) {
			break
		}
		if s.It.Deliver {
			script = append(script, s)
			continue
		}
		if pos == 0 {
			script = append(script, schedule.Chosen{It: s.It, Lags: []int{}, Crash: s.Crash})
			break
		}
		pos--
		script = append(script, s)
	}
	return script
}

// MadeFaults reports that a schedule run from script, whose chosen steps
// are chosen and which delivered that many writes in flight, made each
// of script's faults where script has it.
func MadeFaults(chosen []schedule.Chosen, delivered int, script []schedule.Chosen) bool {
	if len(chosen) < len(script) {
		return false
	}
	n := 0
	for i, s := range script {
		if s.It.Deliver {
			n++
		}
		if chosen[i].It != s.It || chosen[i].Crash != s.Crash {
			return false
		}
	}
	return delivered >= n
}
