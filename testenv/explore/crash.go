package explore

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

// crashPoint says where a step crashes (schedule.Crash).
type crashPoint = schedule.Crash

// stopped reports that the step's process has crashed: calls fail. After
// a crashInFlight the old leader runs on until its next write is held.
func (r *run) stopped() bool {
	return r.trace.cur != nil && r.trace.cur.crash.Kind != crashNone && !r.held.holdsNext()
}

// maybeCrash runs after each successful write of a step: it decides (or,
// replaying, looks up) whether the process crashes here.
func (r *run) maybeCrash() {
	s := r.trace.cur
	if s == nil || s.action || s.sentBy > 0 || r.trace.drain {
		return
	}
	s.writesDone++
	var c crashPoint
	switch {
	case s.plan != nil:
		if s.crashPlan.At == s.writesDone {
			c = s.crashPlan
		}
	case r.trace.crashes < r.ex.o.Crashes && r.trace.ch.faults != nil:
		c.Kind = r.trace.ch.faults.Crash()
	case r.trace.crashes < r.ex.o.Crashes:
		options := faults.Points(faults.Bounds{LeaderChange: r.ex.o.LeaderChange, InFlightWrite: r.ex.o.InFlightWrite, InFlightWrites: r.ex.o.InFlightWrites}, r.held.in.Holding())
		c = options[r.trace.ch.Choose(len(options))]
	}
	if c.Kind != crashNone {
		r.trace.crashes++
		c.At = s.writesDone
		s.crash = c
	}
}

// restart replaces the crashed process: new reconcilers on new clients,
// every object queued, and, for a restart, a cold cache.
func (r *run) restart(kind int) {
	r.cache.CloseWindows() // the new process has new informers (internal/informers)
	if kind == crashRestart {
		r.cache.Model.View.Reset()
		for _, k := range r.book.Keys() {
			r.cache.Model.Floor[k] = r.book.History(k).Newest()
		}
	} else {
		// The standby ran the same Setup: the same field indexes.
		r.cache.Model.View.HandOver(r.cache.Model.Indexed)
	}
	if err := r.newReconcilers(); err != nil && r.err == nil {
		r.err = err
	}
	for _, k := range r.book.Keys() {
		if h := r.book.History(k); h.Versions[h.Newest()] != nil {
			r.queue.QueueFor(k)
		}
	}
}

// crashResult describes a crashed step.
func crashResult(s *stepState) string { return faults.Describe(s.crash, s.held) }
