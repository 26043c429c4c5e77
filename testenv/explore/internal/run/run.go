// Package run runs one schedule of the explorer: the reconcilers on the
// explorer's clients (client.go: every read served from the book or the
// cache model, every write recorded and judged), the steps that run them
// and the drain to a steady state (run.go), the crashes and restarts
// (crash.go) and the old leader's writes in flight (zombie.go), and the
// trace of what the schedule did and broke (trace.go). A Run holds its
// concerns by name (Trace, Book, Checks, Cache, Queue, Held, Track) and
// reads the search it belongs to only through the Explorer interface the
// root implements; the search (the root and internal/search) decides
// which schedule runs and reads what it did from the Run's fields.
package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/queue"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/seeded"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/setup"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"

	utilrand "k8s.io/apimachinery/pkg/util/rand"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Run is one schedule: the reconcilers on the explorer's clients
// (client.go), the steps that run them, crashes and restarts (crash.go).
// The rest of its state is in the concerns it holds by name, each a type
// that owns its fields and reaches the others only through the pointers
// New gives it.
type Run struct {
	ex     Explorer
	server client.Client
	recs   []reconcile.Reconciler
	done   map[int]bool // actions that ran
	// src is the schedule's Source, kept across restarts; names the
	// source of the names generateName asks for (genname.go).
	src, names *seeded.Source
	// Err is a failure to restart, which ends the schedule.
	Err error
	// calls serializes the calls of the clients (calllock.go).
	calls callLock
	// Proc serves the manager's config to the process's Setup, and runs
	// the caches it builds from it (internal/served).
	Proc *servedapi.Process

	// Trace is what the schedule did: steps, crashes, violations
	// (trace.go). Each concern is a named field, so r.x is Run's own.
	Trace  Trace
	Book   *book.Book      // the versions the server held (internal/book)
	Checks judge.Checks    // the invariants judged on it, and who created and deleted what (internal/judge)
	Cache  informers.Cache // what cached reads may see (cachemodel.go)
	Queue  queue.Work      // what runs next (queue.go)
	Held   Held            // the old leader's writes in flight (zombie.go)
	Pushes Pushes          // the events pushed to channel sources (pushes.go)
	Track  *search.Visit   // the depth-first search's record of it, or nil
}

// New is a schedule of ex on server, with nothing recorded yet.
func New(ex Explorer, server client.Client) *Run {
	r := &Run{ex: ex, server: server, done: map[int]bool{}}
	if ex != nil {
		r.Trace.Disabled = ex.Scenario().Disabled
	}
	r.Book = book.New(server, r.Checks.CheckWrite)
	r.Checks = judge.NewChecks(r.Book, judgeTrace{ex: ex, t: &r.Trace})
	r.Cache = newCacheModel(r, &r.Trace, r.Book)
	if server != nil {
		r.Cache.Model.Scheme = server.Scheme()
	}
	r.Queue = newWorkQueue(ex, r.Book, server, &r.calls)
	r.Held = Held{ex: ex, book: r.Book, trace: &r.Trace, work: &r.Queue}
	return r
}

// Setup builds the reconcilers and creates the scenario's objects on a
// clean backend.
func (r *Run) Setup(ctx context.Context) error {
	if err := r.newReconcilers(); err != nil {
		return err
	}
	for _, o := range r.ex.Scenario().Objects {
		k, err := r.Book.KeyOf(o, client.ObjectKeyFromObject(o))
		if err != nil {
			return err
		}
		stored, err := r.ex.Create(ctx, r.server, o)
		if err != nil {
			return fmt.Errorf("explore: creating %T %s: %w", o, client.ObjectKeyFromObject(o), err)
		}
		if stored != nil {
			r.Book.Record(k, stored.Object, stored.GetResourceVersion())
		} else if _, _, err := r.Book.Observe(ctx, k); err != nil {
			return err
		}
		r.Cache.Lists.Wrote(k.GVK.GroupKind(), "", r.newestRV(k), nil) // informers.Floors
		r.Queue.QueueEvent(k)
	}
	r.Pushes.collect(r.Queue.Enqueue)
	for i := range r.ex.Scenario().Actions {
		r.Queue.Items = append(r.Queue.Items, schedule.Item{Rec: -1, Action: i})
	}
	return nil
}

// newReconcilers builds the reconcilers on new clients, as a new process:
// New's, then Setup's controllers.
func (r *Run) newReconcilers() error {
	cached, api := r.clients()
	if r.src == nil { // the schedule's start, not a restart
		r.src = seeded.New(1)
		// apimachinery's util/rand (Cluster API's MachineSet names): the
		// same names for the same choices, so a replay, which runs alone,
		// matches; Parallel workers share it.
		utilrand.Seed(1)
	}
	cached, api = intercept.Comparable(cached, r.src), intercept.Comparable(api, r.src)
	r.recs = r.recs[:0]
	sc := r.ex.Scenario()
	r.Queue.Built = make([]*recmgr.Controller, len(sc.Reconcilers))
	for _, rc := range sc.Reconcilers[:sc.FromSetup] {
		r.recs = append(r.recs, rc.New(cached, api))
	}
	if sc.Setup == nil {
		return nil
	}
	r.Cache.Model.Indexes, r.Cache.Model.Indexed = recmgr.Indexes{}, map[informers.Key]bool{}
	r.Proc.Stop()
	r.Proc = servedapi.New(servedBook(r), api)
	bs, err := setup.Run(sc.Setup, true, sc.Manager, cached, api, r.Cache.Model.Indexes, r.Cache.Model.Indexed, r.Proc, cacheStores{r})
	if err != nil {
		return err
	}
	if first := len(sc.Reconcilers) - sc.FromSetup; len(bs) != first {
		if len(bs) < first {
			return fmt.Errorf("explore: Scenario.Setup is not re-runnable: it built %d controllers, %d the first time; %s", len(bs), first, recmgr.NotReRunnable)
		}
		return fmt.Errorf("explore: Scenario.Setup built %d controllers, %d the first time", len(bs), first)
	}
	for j := range bs {
		r.Queue.Built[sc.FromSetup+j] = &bs[j]
		r.recs = append(r.recs, bs[j].Do)
	}
	if err := r.Proc.Start(); err != nil {
		return err
	}
	r.Queue.Items = slices.DeleteFunc(r.Queue.Items, func(it schedule.Item) bool { return it.Pushed > 0 }) // lost with the process before
	r.Pushes.start(func(rec int) []crinternals.Channel {
		if b := r.Queue.Built[rec]; b != nil {
			return b.Channels
		}
		return nil
	}, len(r.Queue.Built))
	return nil
}

// Step runs one queued reconcile or action; plan, if not nil, fixes the
// lags of its cached reads, crash where its process crashes.
func (r *Run) Step(ctx context.Context, it schedule.Item, plan []int, crash schedule.Crash) {
	r.Queue.Dequeue(it)
	defer r.Pushes.collect(r.Queue.Enqueue)
	if it.Pushed > 0 {
		deliverPush(ctx, r, it)
		return
	}
	if it.Deliver {
		r.Held.deliver(ctx, it)
		return
	}
	s := &StepState{Step: outcome.Step{Index: len(r.Trace.Steps) + 1, Drain: r.Trace.Drain}, Seen: map[book.Key]int{}, plan: plan, action: it.Action >= 0, crashPlan: crash}
	if plan == nil && r.Trace.Drain {
		s.plan = []int{}
	}
	r.Trace.Cur = s
	if watches, err := r.Proc.Sync(ctx); err != nil && r.Err == nil {
		r.Err = err
	} else if err == nil {
		r.Cache.MarkSeen(watches)
	}
	var err error
	var res ctrl.Result
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.Step.Result = fmt.Sprintf("panic: %v", p)
				if lc, ok := recmgr.Lacked(p, debug.Stack()); ok { // the explorer's lack, not the operator's panic
					r.Err = cmp.Or(r.Err, fmt.Errorf("explore: step %d (%s %s) called %w", s.Step.Index, s.Step.Reconciler, s.Step.Object, lc))
					return
				}
				r.Trace.fail(judge.NameNoPanic, fmt.Sprintf("step %d panicked: %v", s.Step.Index, p))
			}
		}()
		if it.Action >= 0 {
			a := r.ex.Scenario().Actions[it.Action]
			s.Step.Reconciler = "action " + a.Name
			r.done[it.Action] = true
			_, api := r.clients()
			err = a.Run(ctx, api)
			return
		}
		s.Step.Reconciler = r.ex.Scenario().Reconcilers[it.Rec].Name
		s.Step.Object = it.Key.String()
		res, err = r.recs[it.Rec].Reconcile(ctx, reconcile.Request{NamespacedName: it.Key.NN})
	}()
	switch {
	case s.Step.Result != "":
	case s.crash.Kind != crashNone:
		s.Step.Result = crashResult(s)
	case err != nil:
		s.Step.Result = "error: " + err.Error()
	case res.Requeue || res.RequeueAfter > 0: //nolint:staticcheck // Requeue is what the reconciler said
		s.Step.Result = "requeue"
	default:
		s.Step.Result = "done"
	}
	if s.Step.Drain && it.Action < 0 && s.crash.Kind == crashNone {
		r.Trace.Deferred.note(s.Step, res, err)
	}
	if it.Action < 0 && s.crash.Kind == crashNone {
		r.Trace.Explored.reconciled(s.Step, s.storeReads, res, err)
	}
	if it.Action < 0 && s.crash.Kind == crashNone && (err != nil || res.Requeue || res.RequeueAfter > 0) { //nolint:staticcheck // Result.Requeue is deprecated, but reconcilers still return it
		r.Queue.Enqueue(it)
	}
	r.Trace.Steps = append(r.Trace.Steps, s.Step)
	r.Trace.Chosen = append(r.Trace.Chosen, schedule.Chosen{It: it, Lags: s.lags, Crash: s.ranCrash()})
	r.Trace.Cur = nil
	if s.crash.Kind != crashNone {
		r.restart(s.crash.Kind)
		r.Held.queueHeld(s, it)
	}
}

// DrainToSteady runs rounds with fresh reads: the queue, then what an
// informer's resync of every object queues through the watches'
// predicates (Work.QueueResync: GenerationChangedPredicate drops it, as
// it drops a real resync), until a round writes nothing
// (a steady state, where the steady-state invariants are checked), a
// round ends in the state an earlier round ended in (the drain loops:
// converges is broken, with that evidence), or the drain's bound
// (Options.DrainBound) ran out.
func (r *Run) DrainToSteady(ctx context.Context) {
	r.Trace.Drain = true
	n, bound := 0, optionsOf(r.ex).DrainBound
	ended := map[uint64]int{} // a round's end state: the steps run by then
	deferred := 0             // rounds in a row that wrote nothing and deferred (deferred.go)
	for n < bound && ctx.Err() == nil {
		r.Trace.Deferred = deferral{}
		round := append([]schedule.Item(nil), r.Queue.Items...)
		for _, k := range r.Book.Keys() {
			if h := r.Book.History(k); h.Versions[h.Newest()] != nil {
				r.Queue.QueueResync(k)
			}
		}
		for _, it := range r.Queue.Items {
			if !slices.Contains(round, it) {
				round = append(round, it)
			}
		}
		wrote := false
		first := len(r.Trace.Steps)
		for i := 0; i < len(round); i++ {
			if n >= bound || ctx.Err() != nil {
				break
			}
			got, before := r.Pushes.Got, slices.Clone(r.Queue.Items)
			r.Step(ctx, round[i], nil, schedule.Crash{})
			n++
			wrote = wrote || r.Trace.lastWrote()
			if r.Pushes.Got != got || round[i].Pushed > 0 {
				round = pushedInRound(round, i, before, r.Queue.Items)
			}
		}
		if !wrote && n < bound && ctx.Err() == nil && r.Trace.Deferred.any {
			if deferred++; deferred > maxDeferredRounds || !r.Trace.Deferred.waitOut(ctx) {
				return // no steady state reached, none judged: Unknown
			}
			continue
		}
		if !wrote && n < bound && ctx.Err() == nil {
			r.checkSteadyState(ctx, first)
			return
		}
		deferred = 0
		if ctx.Err() == nil && n < bound {
			h := r.drainState()
			if at, ok := ended[h]; ok {
				r.Trace.fail(judge.NameConverges, fmt.Sprintf("the drain loops: after %d steps past the chosen ones it was back in the state it reached after %d, every round between writing, so it never reaches a steady state", n, at))
				return
			}
			ended[h] = n
		}
	}
	if ctx.Err() == nil {
		r.Trace.fail(judge.NameConverges, fmt.Sprintf("no steady state within %d steps after the chosen ones (%s), every round writing", bound, optionsOf(r.ex).DrainBoundName))
	}
}

// pushedInRound is a drain's round, whose step i (round[i]) has just run
// with queued queued before it and queue after it, with what pushed
// events queued appended (pushes.go): every queued item not in the round,
// and, as controller-runtime's queue runs again an item added after it
// was taken, one that ran already in the round when a pushed event queued
// it since: a delivery taken in step i (a second event pending for its
// object) or what a delivery in step i queued. Without them a round that
// wrote nothing was judged steady with those reconciles still queued. A
// requeue the reconcile returned, or an item a write queued again, waits
// for the next round, as before (a write makes one).
func pushedInRound(round []schedule.Item, i int, queued, queue []schedule.Item) []schedule.Item {
	it := round[i]
	for _, q := range queue {
		if slices.Contains(round[i+1:], q) {
			continue
		}
		ran := slices.Contains(round[:i+1], q)
		again := it.Pushed > 0 && (q == it || !slices.Contains(queued, q))
		if !ran || again {
			round = append(round, q)
		}
	}
	return round
}
