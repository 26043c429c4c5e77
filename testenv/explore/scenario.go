package explore

import (
	"context"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Scenario is what the explorer runs: reconcilers, the objects they start
// from, user writes to interleave with them, and what must hold.
type Scenario struct {
	// Reconcilers are built afresh for every schedule.
	Reconcilers []Reconciler
	// Objects are created, in order, at the start of every schedule
	// (status is ignored, as the server ignores it on create).
	Objects []client.Object
	// Actions are user writes (a spec change, a deletion). Each runs once,
	// at a point of the schedule the explorer chooses.
	Actions []Action
	// Invariant, if set, is checked at every steady state with an
	// uncached reader, for example "exactly one plan".
	Invariant func(ctx context.Context, r client.Reader) error
	// Setup, if set, is the operator's own setup (for example
	// func(mgr ctrl.Manager) error { return (&MyReconciler{...}).SetupWithManager(mgr) }):
	// every controller it builds becomes a reconciler, named as the
	// controller, whose For, Owns and Watches, with their predicates and
	// handlers, decide what each write queues. It runs once when Run
	// starts, then at the start of every schedule and again after every
	// crash restart or leader change: state it resets is reset mid-schedule
	// (reset it in BeginSchedule). So it must run again in the same
	// process: hoist global registrations (Prometheus MustRegister, flags)
	// and sync.Once out of it; a second run that panics or builds fewer
	// controllers fails Run with "Setup is not re-runnable". See
	// docs/explore.md.
	Setup func(mgr manager.Manager) error
	// BeginSchedule, if set, runs once at the start of every schedule, on
	// a clean backend, before New, Setup and the Objects: never after a
	// crash restart or a leader change, so state it resets (a fake
	// external system, a count) lives exactly one schedule, with one world.
	// It runs for every schedule a search runs: each replay (a Replay runs
	// twice) and each of the minimiser's, each fresh schedule that judges
	// a schedule after its end (ownjudge.go), in every parallel worker
	// (concurrently, with more than one world) and every shard, for the
	// schedules each runs. It is not told which world or schedule it
	// begins: with more than one world, one worker's call would reset state
	// another's schedule still uses, so key such state by SourceOf instead
	// (see docs/explore.md). An error fails Run, naming the schedule.
	BeginSchedule func(ctx context.Context) error
	// Records are fields that record an object a reconciler created, for
	// InvariantRecordLive: in a steady state each names a live object.
	Records []Record
	// Manager, if set, is the manager.Options the operator's main.go
	// gives ctrl.NewManager (Setup never sees them). The explorer honours
	// Client.Cache as the manager's client does: a kind of DisableFor is
	// read uncached (as with Options.Uncached), and so are unstructured
	// objects unless Unstructured is true; and Controller as the
	// manager's builder does, as the defaults of each controller's
	// options (EnableWarmup: see docs/explore.md on leader changes).
	// Without it (nil), the manager's defaults hold: unstructured objects
	// are read uncached.
	Manager *manager.Options
}

// Reconciler is one controller under test.
type Reconciler struct {
	// Name identifies it in schedules and seeds: letters, digits, '-', '.'.
	Name string
	// For is the kind it reconciles, e.g. &v1alpha1.Rollout{}. A write to an
	// object of this kind queues a reconcile of that object, as a watch would.
	For client.Object
	// Owns are kinds it creates and watches, e.g. &appsv1.StatefulSet{}, as
	// the builder's Owns: a write to (or deletion of) an object of one of
	// these kinds queues a reconcile of the object's controller owner (its
	// ownerReference with controller: true of the For kind), in the
	// version before the write and after it.
	Owns []client.Object
	// Predicates filter the events of the For kind, as the builder's
	// For(obj, builder.WithPredicates(...)): with
	// predicate.GenerationChangedPredicate{} a status-only write queues no
	// reconcile of the object written. EventFilter filters every event,
	// of the For and the Owns kinds, as WithEventFilter. Writes are the
	// events; the drain's rounds over every object are an informer's
	// resync (an update from the newest version to itself), and the
	// queueing after a crash restart a new manager's first list (a
	// create), each through the predicates, as controller-runtime's
	// source.Kind runs them for every informer callback.
	Predicates, EventFilter []predicate.Predicate
	// New builds the reconciler. c reads through the explorer's lagging
	// cache and writes to the server; apiReader always reads the newest
	// version (pass it where the real reconciler gets mgr.GetAPIReader(),
	// or give Clients{c, apiReader} to patcher.ForManager).
	New func(c client.Client, apiReader client.Reader) reconcile.Reconciler
}

// Clients is the pair of clients New receives, as the manager a reconciler
// set up with patcher.ForManager wants: it has GetClient and GetAPIReader,
// so New can build the reconciler as SetupWithManager does,
//
//	New: func(c client.Client, api client.Reader) reconcile.Reconciler {
//		return &RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: c, APIReader: api})}
//	},
//
// and its patchers re-read through the explorer's API reader, as they would
// through mgr.GetAPIReader().
type Clients struct {
	Client    client.Client
	APIReader client.Reader
}

// GetClient returns the client that reads through the lagging cache.
func (m Clients) GetClient() client.Client { return m.Client }

// GetAPIReader returns the reader that always sees the newest version.
func (m Clients) GetAPIReader() client.Reader { return m.APIReader }

// Action is a user write. c reads the newest versions.
type Action struct {
	Name string
	Run  func(ctx context.Context, c client.Client) error
}

// Options bound the search. Zero values take the defaults given.
type Options struct {
	// Backend runs the schedules: Server(env) (a real API server) or Fake.
	Backend Backend
	// Depth is how many steps of each schedule the explorer chooses
	// (which queued reconcile or action runs, which version each cached
	// read sees). After them the schedule drains with fresh reads. Default 4.
	Depth int
	// MaxSteps bounds the drain: a schedule that needs more steps to reach
	// a steady state does not converge. Default: no bound of the user's;
	// converges is broken when the drain returns to a state it was in
	// (it loops), or past 1,000 steps, each round writing.
	MaxSteps int
	// Versions is how many of the last versions of an object a cached Get
	// may see, and how many of the last different lists of its kind's
	// informer a cached List may see (1 = always the newest). Default 4.
	Versions int
	// StaleReads bounds the stale windows per schedule (internal/informers, stale.go): a
	// cached read that sees an older version than the newest opens one on
	// its informer, and the later cached reads through that informer (in
	// that reconcile and the process's later ones) see the kind at the
	// same point at no further cost, until the window closes or a newer
	// one opens. Default 2.
	StaleReads int
	// Budget bounds the search time, checked between schedules (the
	// running one finishes; minimisation comes on top). Default 10s.
	//
	// A depth-first search (no Seed, Replay or Schedules) given a Budget
	// and none of Depth, Versions and StaleReads deepens its bounds
	// within it: when the default bounds are exhausted without a
	// violation it searches again at DeepeningLevel(1), then (2), and so
	// on, until a violation, a level not exhausted, the end of the
	// Budget, or a level none of whose schedules a deepened bound cut
	// short (more queued at the last chosen step, more versions or lists
	// than Versions, a stale read refused by StaleReads): the next level
	// would run the same schedules. Result.Bounds and Violation.Bounds
	// say which level. Without a
	// Budget (the default 10s), or with a bound set, the search runs at
	// one level; FixedBounds and Deepen change that (docs/explore-design.md,
	// Bounds and deepening).
	//
	// With the true defaults (a Budget and none of the bounds, Deepen,
	// FixedBounds, Crashes, LeaderChange, InFlightWrite and
	// InFlightWrites) the deepening gets the first 3/5 of the Budget; if
	// it ends without a violation and with space left (a level not
	// exhausted, or its last level still cut by a bound), the rest goes
	// to the fault phase: random schedules (a fixed seed) that run the
	// queue first in first out to a crash or a leader change at a
	// uniformly chosen write, then in any order with one stale read among
	// the first three after it, at Depth 24, Versions 8 (Bounds.Faults).
	// Each such schedule is run with a probability written down in
	// docs/explore.md.
	Budget time.Duration
	// FixedBounds keeps the search at one level, its bounds (the defaults
	// for those left at zero), whatever the Budget: for a test that gives
	// a long Budget as a bound, not a deadline, and asserts that the
	// space at those bounds is exhausted without a violation. A deepening
	// search can spend its whole Budget and end at a level not exhausted.
	FixedBounds bool
	// Deepen makes a depth-first search deepen the bounds left at zero
	// even when it sets some (those set stay as set) or gives no Budget
	// (it then deepens within the default 10s). A search given a Budget
	// and no bound deepens without it. Run returns an error if both
	// Deepen and FixedBounds are set.
	Deepen bool
	// Seed, if non-zero, makes the search random with this seed instead of
	// depth-first; the same seed explores the same schedules.
	Seed int64
	// Replay, if set, runs only this schedule, a Violation's Seed, twice,
	// and reports in Result.Diverged whether the two runs differ; the
	// first run's violation, if any, is Result.Violation, Violations'
	// one entry and the Report's.
	Replay string
	// Crashes bounds how many times per schedule the explorer stops the
	// process right after a write of a chosen reconcile (every write is a
	// choice) and restarts it: new reconcilers from New, a cold cache (no
	// read older than the restart), every object queued. Default 0: none.
	Crashes int
	// LeaderChange adds, at each crash point, a standby manager taking
	// over instead of a restart: new reconcilers whose cache ran all along
	// (reads may lag as before).
	LeaderChange bool
	// InFlightWrite adds (and implies LeaderChange) a leader change at
	// each crash point whose old leader, having lost its lease, sends one
	// more write, its reconcile's next: the request is held in flight and
	// reaches the server after as many of the new leader's steps as the
	// explorer chooses (every point is a choice), once; the old leader's
	// call fails, as it never sees the answer. One leader change per
	// schedule leaves writes in flight. Default false.
	InFlightWrite bool
	// InFlightWrites, above 0, implies InFlightWrite and bounds how many
	// of the old leader's writes may be in flight: its reconcile runs on
	// past a write whose answer never comes (a deferred status write, an
	// error logged and ignored) and each write it sends is held, up to
	// this many (each bound from 1 up is a choice); each is delivered
	// once, at a point and in an order the explorer chooses. A seed
	// records the bound ("#1Z2"). Default 1.
	InFlightWrites int
	// Uncached are kinds the operator's manager reads uncached, as its
	// client.Options.Cache.DisableFor says (in main.go, which Setup never
	// sees; or give those options as Scenario.Manager): a Get or List of
	// one through the reconcilers' client reads the newest versions from
	// the server, never a lagging cache.
	Uncached []client.Object
	// Parallel is how many schedules run at once, each in a world of its
	// own, at most the backend's worlds: Server(env, more...) has one per
	// server, Fake one. Default runtime.GOMAXPROCS(0), the cores the
	// process may use. With more than one world the scenario's closures
	// (New, Setup, Actions, Invariant) run on several goroutines at once.
	// The search runs the same schedules as with one worker and gives the
	// same verdict (docs/explore.md, Parallel and sharded search).
	Parallel int
	// Schedules, with Seed, runs exactly the random schedules 0 to
	// Schedules-1 (this Shard's share of them), whatever the Budget, and
	// reports every violation in Result.Violations, not only the first.
	Schedules int
	// Shard, with Seed and Schedules, runs only the schedules whose index
	// is Shard.Index modulo Shard.Count. ShardFromEnv reads it from the
	// environment (a Kubernetes Indexed Job, a CI matrix); MergeReports,
	// or the explore-merge command, merges the shards' reports.
	Shard Shard
	// Report, if set, is the file Run writes its Report to, as JSON.
	Report string
	// Disable turns built-in invariants off by name, e.g.
	// []string{explore.InvariantOwnDelete} for a reconciler that deletes
	// what it created on purpose. InvariantUser and InvariantNoPanic cannot
	// be turned off.
	Disable []string
	// Progress is where the search writes a progress line every
	// ProgressEvery (what it searches: the deepening level and its bounds,
	// the fault phase or a seeded random search; the schedules run and
	// per second, those pruned, the violations so far, the time left of
	// the Budget) and one summary line when Run ends. Default os.Stderr.
	Progress io.Writer
	// ProgressEvery is the time between two progress lines. Default 5s.
	ProgressEvery time.Duration
	// Quiet turns the progress lines and the summary line off.
	Quiet bool
	// StopAtFirst stops the search at its first violation, as before
	// issue 82. Default: the search goes on within its Budget (through
	// its deepening levels and fault phase), keeps every distinct
	// violation (invariant, object, fields, write at fault), minimises
	// each, and reports the most severe first (Violation.Rank).
	StopAtFirst bool
	// Lint is the statuspatch-lint binary that audits the line of the
	// write a violation names (Violation.Cause), where the operator's
	// source is on disk: Run adds the line's -audit verdict and reason to
	// the Message. Default: $STATUSPATCH_LINT, else bin/statuspatch-lint
	// of the module the test runs in, else statuspatch-lint on the PATH;
	// none found, or "off": no audit (audit.go).
	Lint string
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Depth, defaultDepth)
	if o.InFlightWrites > 0 {
		o.InFlightWrite = true
	} else if o.InFlightWrite {
		o.InFlightWrites = 1
	}
	if o.MaxSteps < 0 {
		o.MaxSteps = 0
	}
	def(&o.Versions, defaultVersions)
	if o.StaleReads < 0 {
		o.StaleReads = 0
	} else if o.StaleReads == 0 {
		o.StaleReads = defaultStaleReads
	}
	if o.Budget <= 0 {
		o.Budget = 10 * time.Second
	}
	def(&o.Parallel, runtime.GOMAXPROCS(0))
	if o.Progress == nil {
		o.Progress = os.Stderr
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = defaultProgressEvery
	}
	return o
}

// Result is what a search did.
type Result struct {
	// Schedules is the number of schedules run (pruned ones included).
	Schedules int
	// Pruned counts schedules cut short because their state was seen before.
	Pruned int
	// Elapsed is the search time, minimisation excluded.
	Elapsed time.Duration
	// Exhausted reports that every schedule up to Options.Depth was run
	// within the budget; after a deepening search, every schedule at the
	// deepest level searched, Bounds.
	Exhausted bool
	// Bounds are the bounds of the last level searched (the deepest).
	Bounds Bounds
	// Violation is the most severe one found (Violations[0]), minimised,
	// or nil; with Options.StopAtFirst, the first found.
	Violation *Violation
	// Violations are every distinct violation found (by invariant,
	// object, fields and write at fault; with Options.Schedules, by
	// Invariant and Seed), minimised, most severe first (Rank), then in
	// the order of the schedule that first found each.
	Violations []*Violation
	// Workers is how many schedules ran at once (Options.Parallel,
	// bounded by the backend's worlds).
	Workers int
	// NotExplored: what the search ran but did not explore (notexplored.go).
	NotExplored []NotExplored
	explored    counted
	// Speculative counts the schedules a parallel depth-first search ran
	// that the serial search does not run (it would prune them, or they
	// come after the violation): not in Schedules or Pruned, which are
	// the serial search's.
	Speculative int
	// cut are the bounds that cut a schedule of the search short
	// (deepen.go).
	cut boundSet
	// Diverged, after a Replay (which runs the schedule twice), says where
	// the two runs wrote different things once what differs between any
	// two runs is taken out (resourceVersions, timestamps, the server's
	// UIDs): the operator's own randomness. Empty when they match.
	Diverged string
	// DivergedByClock, with Diverged, says the books show the server's
	// clock ordered the two objects the runs wrote differently: the step
	// where they differ wrote object x the first time and y the second,
	// both created before it and stamped in one order (or in the same
	// second, creationTimestamp's unit) the first time and in another the
	// second, as an operator that picks the first of its objects sorted
	// by creationTimestamp does. No seed controls it: such a divergence
	// says nothing of the operator's randomness, and the replay's verdict
	// is the first run's.
	DivergedByClock bool
}

// Violation is a schedule that breaks an invariant.
type Violation struct {
	// Invariant is one of the Invariant* constants.
	Invariant string
	// Message says what broke.
	Message string
	// Cause is the write Message names as having caused it (its Kind, At
	// and, where statuspatch-lint audited its line, Audit); nil when the
	// message names none.
	Cause *Write
	// audited: Run added Cause's audit (audit.go).
	audited bool
	// Also lists later violations of the same schedule, "invariant: message".
	Also []string
	// names are the invariants of Invariant and Also; about, the object
	// and fields of Invariant's violation (internal/violation).
	names map[string]bool
	about violation.Detail
	// alsoAbout is what each of Also is about.
	alsoAbout []violation.Detail
	// faulted: Seed's schedule crashes a step (a restart or a leader
	// change), which orders it after an equal rank that needs no fault
	// (rank.go).
	faulted bool
	// Rank orders the violations of a search, most severe first (1: a
	// value goes backwards; 2: a decision lost, undone or made twice, a
	// panic, the scenario's invariant; 3: an object stuck; 4: a lost
	// write whose lost values were written again before the steady
	// state; 5: a lost write whose values differ only in time-like
	// fields or in order); RankReason says why (rank.go).
	Rank       int
	RankReason string
	// Steps is the minimised schedule, to its steady state (or MaxSteps);
	// steps with Drain set were not chosen but followed with fresh reads.
	Steps []Step
	// Seed replays the schedule: Options{Replay: Seed}.
	Seed string
	// FoundAfter is the search time until the violation was first seen,
	// and Schedules the schedules run until then; both 0 in a replay
	// (Bounds.Replay), which searched nothing: it ran Options.Replay.
	FoundAfter time.Duration
	Schedules  int
	// Bounds are the bounds of the search that found it; a replay or a
	// minimisation of Seed needs Bounds.Versions (ReplayOptions).
	Bounds Bounds
}
