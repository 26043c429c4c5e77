package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// Crashes (Options.Crashes, LeaderChange, InFlightWrite(s)): the crash
// points, how a crashed step reads and the writes in flight are modelled
// in internal/faults (its crash.go says what each kind of crash does);
// the run takes its crashes and restarts its process here.

// The kinds of crash (schedule.Crash).
const (
	crashNone     = schedule.CrashNone
	crashRestart  = schedule.CrashRestart
	crashFailover = schedule.CrashFailover
	crashInFlight = schedule.CrashInFlight
)

// errCrashed is what a call of a crashed process fails with.
var errCrashed = faults.ErrCrashed

// stopped reports that the step's process has crashed: calls fail. After
// a crashInFlight the old leader runs on until its next write is held.
func (r *Run) stopped() bool {
	return r.Trace.Cur != nil && r.Trace.Cur.crash.Kind != crashNone && !r.Held.holdsNext()
}

// maybeCrash runs after each successful write of a step: it decides (or,
// replaying, looks up) whether the process crashes here.
func (r *Run) maybeCrash() {
	s := r.Trace.Cur
	if s == nil || s.action || s.sentBy > 0 || r.Trace.Drain {
		return
	}
	s.writesDone++
	var c schedule.Crash
	o := optionsOf(r.ex)
	switch {
	case s.plan != nil:
		if s.crashPlan.At == s.writesDone {
			c = s.crashPlan
		}
	case r.Trace.Crashes < o.Crashes && r.Trace.Ch.Faults != nil:
		c.Kind = r.Trace.Ch.Faults.Crash()
	case r.Trace.Crashes < o.Crashes:
		options := faults.Points(o.Faults, r.Held.In.Holding())
		c = options[r.Trace.Ch.Choose(len(options))]
	}
	if c.Kind != crashNone {
		r.Trace.Crashes++
		c.At = s.writesDone
		s.crash = c
	}
}

// restart replaces the crashed process: new reconcilers on new clients,
// every object queued as its first list queues it (a create event of
// each, through the predicates of the watches Setup built), and, for a
// restart, a cold cache.
func (r *Run) restart(kind int) {
	r.Cache.CloseWindows() // the new process has new informers (internal/informers)
	if kind == crashRestart {
		r.Cache.Model.View.Reset()
		for _, k := range r.Book.Keys() {
			r.Cache.Model.Floor[k] = r.Book.History(k).Newest()
		}
	} else {
		// The standby ran the same Setup: the same field indexes.
		r.Cache.Model.View.HandOver(r.Cache.Model.Indexed)
	}
	if err := r.newReconcilers(); err != nil && r.Err == nil {
		r.Err = err
	}
	for _, k := range r.Book.Keys() {
		if h := r.Book.History(k); h.Versions[h.Newest()] != nil {
			r.Queue.QueueListed(k) // its informers' first list: creates, through the predicates
		}
	}
}

// crashResult describes a crashed step.
func crashResult(s *StepState) string { return faults.Describe(s.crash, s.held) }
