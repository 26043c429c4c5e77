// Package explore runs a controller's real reconcilers under chosen
// interleavings and stale reads, against a real API server (Server) or
// controller-runtime's fake client (Fake), and checks invariants.
//
// # Model
//
// Reconciles run one at a time; goroutine timing decides nothing. Every
// write goes through the explorer's client, which records each version of
// each object the server held and queues the reconcilers of the written
// kind for that object, as a watch would (and those that Own the kind for
// the object's controller owner). A delete, and an update or patch that
// removes the last finalizer of an object being deleted, record the
// object's absence. At each of the first
// Options.Depth steps of a schedule the explorer chooses which queued
// reconcile (or user Action) runs next, and, for each read through the
// reconciler's cached client, which of the last Options.Versions versions
// it sees (the stalest is tried first). A stale read opens a stale window
// on its informer: the later cached reads through it, in that reconcile
// and the process's later ones, see the kind at the same point, until
// the window closes or a newer one opens;
// Options.StaleReads bounds the windows per schedule (internal/informers). A read is
// never older than what the process's informer for the
// read already served (an informer does not go backwards; each kind has
// one for typed, one for unstructured and one for metadata-only objects,
// each lagging on its own; one no controller watches starts at its first
// read, no older than what the kind's other informers served). Reads
// through the API reader always see the newest version. Then the schedule
// drains: rounds of the queue plus every reconciler on every object of its
// kind, with fresh reads, until a round writes nothing (a steady state).
// With Options.Crashes the explorer may also stop the process after any
// write of a chosen reconcile and restart it with a cold cache (or, with
// Options.LeaderChange, hand over to a standby manager; with
// Options.InFlightWrite the old leader's next write, with
// Options.InFlightWrites up to that many, is held in flight and reaches
// the server when the explorer chooses, once).
//
// # Invariants
//
//   - no lost write: a write changed a field that an earlier write set,
//     computed from a version older than that write's (the newest, for a
//     write under the lock the server accepted; the one the sent object
//     carries, for a blind write of a read object; a violation names the
//     write's kind and its line), but not a server-side apply restating
//     its own reconcile's newest decision (by managedFields, only that
//     reconcile's field manager applied the field, in the same process,
//     from reads no newer);
//   - observedGeneration never goes backwards and never passes generation;
//   - observedGeneration caught up: it equals generation in a steady state;
//   - converges: the drain reaches a steady state (broken when it loops
//     back to a state it was in, or past its bound, every round writing);
//   - deleted stays deleted: a reconciler creates again an object of its
//     own For kind that a user action deleted;
//   - no delete of own creation: a reconciler deletes what a reconciler of
//     the schedule created (by any write), after a stale read or a crash
//     (an action's replacement may be deleted), unless the same schedule
//     with fresh reads and no crash deletes it too, no later;
//   - no error loop: a reconcile errs in a steady state;
//   - no stuck finalizer: in a steady state an object being deleted keeps
//     a finalizer a reconciler of its kind added, and its reconciles
//     return done without a write or a requeue (silent while it has a
//     dependent, or an object waits on a finalizer no reconciler added:
//     the garbage collector's, a user's);
//   - record names a live object (Scenario.Records) in a steady state;
//   - no panic;
//   - Scenario.Invariant at every steady state.
//
// Options.Disable turns the built-in ones off by name.
//
// # Wiring
//
// Scenario.Reconcilers state each reconciler's For, Owns and Predicates;
// Scenario.Setup instead runs the operator's own SetupWithManager on a
// recording manager and routes each write's event through the watches,
// predicates and handlers it builds. Both run again after each crash
// restart and leader change; Scenario.BeginSchedule runs once per
// schedule, before them.
//
// # Determinism
//
// SourceOf(c) is a seeded source of names and UUIDs, the same in every
// schedule; a Replay runs twice and Result.Diverged says where the
// operator's own randomness made the runs differ.
//
// # Search
//
// Depth-first with iterative deepening (shortest schedules first), or
// random with Options.Seed, within Options.Budget. A depth-first search
// given a Budget and no bound (Depth, Versions, StaleReads) deepens its
// bounds level by level within it (DeepeningLevel) until it finds a
// violation; Options.FixedBounds keeps it at one level. With the true
// defaults and a Budget, a deepening that ends with space left is
// followed, within the Budget, by the fault phase: random schedules with
// a crash or a leader change and a stale read after it (faults.go).
// States already seen
// (objects' recent versions normalised, the queue, the stale windows
// and steps left) are not explored again. A violation is minimised (steps
// dropped, stale reads made fresh while the same invariant still breaks)
// and carries a Seed that Options.Replay runs again.
//
// Each schedule starts clean: Server deletes the objects the previous
// schedule wrote (finalizers removed first), Fake builds a new client.
//
// # Parallel and sharded search
//
// Options.Parallel (default runtime.GOMAXPROCS(0)) runs schedules at once,
// one in each world of the backend: a server each (Server(env1, env2)),
// not namespaces of one server, whose reset deletes by name and whose
// cluster-scoped kinds no namespace isolates; FakeWorlds(n) for the fake
// client. The parallel search runs the serial search's schedules and
// reports its verdict: depth-first, each schedule is a task decided by its
// prefix of choices, the tasks' tree and order are the serial search's
// whatever the timing, and the table of states seen keeps, per state
// hash, the earliest position in the serial order at which any task met
// it (not the first in time), from which the serial search's prunings
// are recomputed before the first violation is decided. The serial
// search is the same search on one worker (internal/search).
// The random search draws schedule i's choices from (Seed, i).
//
// Options.Shard (ShardFromEnv: EXPLORE_SHARD=i/N, or EXPLORE_SHARDS=N with
// an Indexed Job's JOB_COMPLETION_INDEX) splits a random search of
// Options.Schedules schedules by index modulo N; each shard writes
// Options.Report, and MergeReports (the explore-merge command) merges the
// reports into the unsharded search's: every violation once, with its
// replay. The depth-first search does not shard: its pruning needs the
// states met in every schedule before.
//
// # Internals
//
// The root holds the API and the search (explorer, with its setupState
// and testKnobs apart). Below it: internal/run (the run of one schedule:
// its steps, clients, crashes and trace; run.Run holds its concerns by
// name: Trace, Book, Checks, Cache, Queue, Held, and reads the search
// only through its Explorer interface), internal/book (the versions the
// server held), internal/schedule (a schedule's chosen steps and its seed),
// internal/served (the API served in process), internal/recmgr (the
// manager Scenario.Setup runs on), internal/informers (what a manager's
// cache may serve a cached read, and the cache model that chooses it),
// internal/reset (the backends, the reset between schedules, the state
// hash), internal/callsite (a write's line and
// its audit), internal/judge (the built-in invariants: their table,
// their judges, what a schedule judges after its end),
// internal/faults (crash points, writes in flight, the fault phase's
// plan), internal/queue (the work queue, and what an object's event
// queues in it), internal/violation (what a schedule broke, and how its
// violations rank),
// internal/search (the search over schedules), internal/seeded
// (Source's seeded choices), internal/outcome (a schedule's steps,
// reads, writes and bounds, as reported), internal/intercept (the
// reconcilers' clients, each call sent to the run), internal/setup
// (what the explorer reads of the scenario once), internal/progress
// and internal/crinternals; docs/explore-design.md,
// "Where the code lives", says what each holds.
//
// The built-in invariants are one table, judge.Builtins: each row's hook
// runs its judge (internal/judge, a file each) at each write or each
// steady state and records what it found under the invariant's name
// (judge.Checks); Options.Disable and docs/explore.md's list read it.
//
// See docs/explore.md.
package explore
