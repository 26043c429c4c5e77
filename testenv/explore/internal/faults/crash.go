package faults

import (
	"errors"
	"fmt"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// Crashes: after any write of a chosen reconcile, the explorer may stop
// the process (Options.Crashes bounds how often per schedule). The write
// has landed; every later call of that reconcile fails with ErrCrashed,
// so nothing it would still send (a deferred status write included)
// lands. Then either the process restarts (schedule.CrashRestart: new
// reconcilers, new clients, and a cold cache, filled by a list: no cached
// read sees a version older than the one at the restart) or a standby
// manager takes over (schedule.CrashFailover, Options.LeaderChange: new
// reconcilers whose cache has run all along; its informers started at the
// election begin no older than what the old leader's were served, and
// only those of its field indexes, started with it, may lag behind them:
// internal/informers). Either way the new manager's first list queues
// every object of every reconciler's kind. With Options.InFlightWrite a
// leader change may also leave the old leader's next write in flight, or
// with Options.InFlightWrites up to that many of its next writes
// (schedule.CrashInFlight, Held). The run (internal/run) takes its crashes and
// restarts its process (crash.go).

// ErrCrashed is what every call of a reconcile fails with after its
// process crashed.
var ErrCrashed = errors.New("explore: the process crashed after an earlier write of this reconcile")

// Bounds are the crash options of a search (Options.LeaderChange,
// InFlightWrite and InFlightWrites).
type Bounds struct {
	LeaderChange, InFlightWrite bool
	InFlightWrites              int
}

// Points are the crash points a chosen step may take after a write, in
// the order the search tries them: a restart first (as the stalest read
// comes first: most bugs need it), a leader change, writes left in flight
// (unless held, a crash of this schedule already left some: one per
// schedule, up to InFlightWrites of them, each bound a choice), then no
// crash.
func Points(b Bounds, held bool) []schedule.Crash {
	options := []schedule.Crash{{Kind: schedule.CrashRestart}}
	if b.LeaderChange || b.InFlightWrite {
		options = append(options, schedule.Crash{Kind: schedule.CrashFailover})
	}
	if b.InFlightWrite && !held {
		for n := 1; n <= max(b.InFlightWrites, 1); n++ {
			options = append(options, schedule.Crash{Kind: schedule.CrashInFlight, InFlight: n})
		}
	}
	return append(options, schedule.Crash{})
}

// Ran is crash c as a seed records it once its step has run: a
// CrashInFlight's bound is the writes the step sent after it (at least
// 1), which replays it.
func Ran(c schedule.Crash, sent int) schedule.Crash {
	if c.Kind == schedule.CrashInFlight {
		c.InFlight = max(sent, 1)
	}
	return c
}

// Describe is the result of a step that crashed at c, having left held
// in flight.
func Describe(c schedule.Crash, held []*InFlight) string {
	switch c.Kind {
	case schedule.CrashInFlight:
		next := "the old leader sent no further write"
		var ws []string
		for _, h := range held {
			ws = append(ws, h.Write.Verb+" "+h.Write.Object)
		}
		switch len(ws) {
		case 0:
		case 1:
			next = fmt.Sprintf("the old leader's next write (%s) is in flight", ws[0])
		default:
			next = fmt.Sprintf("the old leader's next writes (%s) are in flight", strings.Join(ws, "; "))
		}
		return fmt.Sprintf("crashed after write %d: a standby manager took over; %s", c.At, next)
	case schedule.CrashFailover:
		return fmt.Sprintf("crashed after write %d: a standby manager (its cache warm, maybe lagging) took over", c.At)
	}
	return fmt.Sprintf("crashed after write %d: restarted with a cold cache", c.At)
}
