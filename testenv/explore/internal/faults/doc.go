// Package faults is the explorer's model of faults: the crash points a
// chosen step may take (Points) and how a crashed step reads (Describe),
// the old leader's writes in flight, captured as sent (CaptureObject,
// CaptureApply) and held (Held), the plan of the fault phase
// of a default search (Plan), and what a replay compares between two
// runs of one schedule (Divergence).
//
// It knows nothing of the run, the trace or the search: the root passes
// the crash bounds, the step's counts and its writes as plain values, and
// makes the fault phase's choices through the Chooser interface
// (search.Chooser is one). The run (internal/run) holds a Held by name and calls
// Points, Plan and Describe from its crash hooks (crash.go).
//
// # The fault phase
//
// A search with the true defaults (a Budget, and none of Depth, Versions,
// StaleReads, Deepen, FixedBounds, Crashes, LeaderChange,
// InFlightWrite(s), Seed, Replay and Schedules) deepens its bounds
// depth-first within DFSShare fifths of the budget. If that search ends
// without a violation and with space left (its last level not exhausted,
// or exhausted with a bound still cutting it at the last level deepening
// reaches), the rest of the budget goes to the fault phase: random
// schedules with a crash or a leader change, which the depth-first search
// never tries, at depths it does not reach.
//
// The phase runs at Depth, Versions, one stale window and faults, with
// one crash and leader changes. Its first schedule, the pilot, runs the
// queue first in first out (the work queue's order) with fresh reads and
// no crash, and counts its W writes (of reconciles, in chosen steps: the
// points where a crash may come; Scale). Then random schedule i draws
// from a source seeded with (Seed, i), as Options.Seed's schedule i does:
//
//   - a crash after write c, c uniform in 1..W, a restart with a cold
//     cache or a leader change with probability 1/2 each; up to it the
//     queue runs first in first out with fresh reads, as the pilot did;
//   - after it, each chosen step uniformly among the queued (the new
//     process's controllers run in any order);
//   - one stale window: opened by the s-th cached read with a choice
//     after the crash, s uniform in 1..ReadsAfter (the new process's
//     caches lag behind what the old one served), its lag uniform among
//     the stale ones within Versions; at each later read through its
//     informer that it serves stale, in its step or a later one of the
//     same process (a window spans reconciles), it stays open or closes
//     with probability 1/2 each. Every other read is fresh.
//
// So a bug that a schedule shows which runs first in first out to its
// c-th write (c <= W), crashes there (of a given kind), then runs k
// chosen steps in a given order, the i-th of which, among the queue's
// q_i, reads stale at lag l (of the w-1 stale ones) in the s-th read with
// a choice after the crash (s <= ReadsAfter), its window then staying
// open or closing as it needs at the m later reads it could serve stale
// (in that step and the later ones), is run by each schedule with
// probability at least
//
//	p = 1/W · 1/2 · 1/(q_1···q_k) · 1/ReadsAfter · 1/(w-1) · 1/2^m,
//
// and by one of n schedules with probability 1-(1-p)^n (docs/explore-design.md,
// Bounds and deepening).
package faults
