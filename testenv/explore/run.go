package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/setup"

	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"context"
	"fmt"
	"slices"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// run is one schedule: the reconcilers on the explorer's clients
// (client.go), the steps that run them, crashes and restarts (crash.go).
// The rest of its state is in the concerns it holds by name, each a type
// that owns its fields and reaches the others only through the pointers
// newRun gives it.
type run struct {
	ex     *explorer
	server client.Client
	recs   []reconcile.Reconciler
	done   map[int]bool // actions that ran
	// src is the schedule's Source, kept across restarts; names the
	// source of the names generateName asks for (genname.go).
	src, names *Source
	// err is a failure to restart, which ends the schedule.
	err error
	// calls serializes the calls of the clients (calllock.go).
	calls callLock
	// proc serves the manager's config to the process's Setup, and runs
	// the caches it builds from it (internal/served).
	proc *servedapi.Process

	// trace is what the schedule did: steps, crashes, violations
	// (trace.go). Each concern is a named field, so r.x is run's own.
	trace  trace
	book   *book.Book    // the versions the server held (internal/book)
	checks checks        // the invariants judged on it, and who created and deleted what (internal/judge)
	cache  cacheModel    // what cached reads may see (cachemodel.go)
	queue  workQueue     // what runs next (queue.go)
	held   heldWrites    // the old leader's writes in flight (zombie.go)
	track  *search.Visit // the depth-first search's record of it, or nil (search.go)
}

// newRun is a schedule on server, with nothing recorded yet.
func newRun(ex *explorer, server client.Client) *run {
	r := &run{ex: ex, server: server, done: map[int]bool{}}
	if ex != nil {
		r.trace.disabled = ex.setup.disabled
	}
	r.book = book.New(server, r.checks.CheckWrite)
	r.checks = judge.NewChecks(r.book, judgeTrace{ex: ex, t: &r.trace})
	r.cache = newCacheModel(ex, &r.trace, r.book)
	if server != nil {
		r.cache.Model.Scheme = server.Scheme()
	}
	r.queue = newWorkQueue(ex, r.book, server, &r.calls)
	r.held = heldWrites{ex: ex, book: r.book, trace: &r.trace, work: &r.queue}
	return r
}

// setup builds the reconcilers and creates the scenario's objects on a
// clean backend.
func (r *run) setup(ctx context.Context) error {
	if err := r.newReconcilers(); err != nil {
		return err
	}
	for _, o := range r.ex.setup.s.Objects {
		k, err := r.book.KeyOf(o, client.ObjectKeyFromObject(o))
		if err != nil {
			return err
		}
		stored, err := r.ex.o.Backend.create(ctx, r.server, o)
		if err != nil {
			return fmt.Errorf("explore: creating %T %s: %w", o, client.ObjectKeyFromObject(o), err)
		}
		if stored != nil {
			r.book.Record(k, stored.Object, stored.GetResourceVersion())
		} else if _, _, err := r.book.Observe(ctx, k); err != nil {
			return err
		}
		r.cache.Lists.Wrote(k.GVK.GroupKind(), "", r.newestRV(k), nil) // informers.Floors
		r.queue.QueueEvent(k)
	}
	for i := range r.ex.setup.s.Actions {
		r.queue.Items = append(r.queue.Items, item{Rec: -1, Action: i})
	}
	return nil
}

// newReconcilers builds the reconcilers on new clients, as a new process:
// New's, then Setup's controllers.
func (r *run) newReconcilers() error {
	cached, api := r.clients()
	if r.src == nil {
		r.src = newSource(1)
	}
	cached, api = intercept.Comparable(cached, r.src), intercept.Comparable(api, r.src)
	r.recs = r.recs[:0]
	r.queue.Built = make([]*built, len(r.ex.setup.s.Reconcilers))
	for _, rc := range r.ex.setup.s.Reconcilers[:r.ex.setup.fromSetup] {
		r.recs = append(r.recs, rc.New(cached, api))
	}
	if r.ex.setup.s.Setup == nil {
		return nil
	}
	r.cache.Model.Indexes, r.cache.Model.Indexed = recmgr.Indexes{}, map[informerKey]bool{}
	r.proc.Stop()
	r.proc = servedapi.New(servedBook(r), api)
	bs, err := setup.Run(r.ex.setup.s.Setup, true, r.ex.setup.s.Manager, cached, api, r.cache.Model.Indexes, r.cache.Model.Indexed, r.proc)
	if err != nil {
		return err
	}
	if first := len(r.ex.setup.s.Reconcilers) - r.ex.setup.fromSetup; len(bs) != first {
		if len(bs) < first {
			return fmt.Errorf("explore: Scenario.Setup is not re-runnable: it built %d controllers, %d the first time; %s", len(bs), first, recmgr.NotReRunnable)
		}
		return fmt.Errorf("explore: Scenario.Setup built %d controllers, %d the first time", len(bs), first)
	}
	for j := range bs {
		r.queue.Built[r.ex.setup.fromSetup+j] = &bs[j]
		r.recs = append(r.recs, bs[j].Do)
	}
	return r.proc.Start()
}

// step runs one queued reconcile or action; plan, if not nil, fixes the
// lags of its cached reads.
func (r *run) step(ctx context.Context, it item, plan []int, crash crashPoint) {
	r.queue.Dequeue(it)
	if it.Deliver {
		r.held.deliver(ctx, it)
		return
	}
	s := &stepState{step: Step{Index: len(r.trace.steps) + 1, Drain: r.trace.drain}, seen: map[book.Key]int{}, plan: plan, action: it.Action >= 0, crashPlan: crash}
	if plan == nil && r.trace.drain {
		s.plan = []int{}
	}
	r.trace.cur = s
	if watches, err := r.proc.Sync(ctx); err != nil && r.err == nil {
		r.err = err
	} else if err == nil {
		r.cache.MarkSeen(watches)
	}
	var err error
	var res ctrl.Result
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.step.Result = fmt.Sprintf("panic: %v", p)
				r.trace.fail(InvariantNoPanic, fmt.Sprintf("step %d panicked: %v", s.step.Index, p))
			}
		}()
		if it.Action >= 0 {
			a := r.ex.setup.s.Actions[it.Action]
			s.step.Reconciler = "action " + a.Name
			r.done[it.Action] = true
			_, api := r.clients()
			err = a.Run(ctx, api)
			return
		}
		s.step.Reconciler = r.ex.setup.s.Reconcilers[it.Rec].Name
		s.step.Object = it.Key.String()
		res, err = r.recs[it.Rec].Reconcile(ctx, reconcile.Request{NamespacedName: it.Key.NN})
	}()
	switch {
	case s.step.Result != "":
	case s.crash.Kind != crashNone:
		s.step.Result = crashResult(s)
	case err != nil:
		s.step.Result = "error: " + err.Error()
	case res.Requeue || res.RequeueAfter > 0: //nolint:staticcheck // Requeue is what the reconciler said
		s.step.Result = "requeue"
	default:
		s.step.Result = "done"
	}
	if it.Action < 0 && s.crash.Kind == crashNone && (err != nil || res.Requeue || res.RequeueAfter > 0) { //nolint:staticcheck // Result.Requeue is deprecated, but reconcilers still return it
		r.queue.Enqueue(it)
	}
	r.trace.steps = append(r.trace.steps, s.step)
	r.trace.chosen = append(r.trace.chosen, scriptStep{It: it, Lags: s.lags, Crash: s.ranCrash()})
	r.trace.cur = nil
	if s.crash.Kind != crashNone {
		r.restart(s.crash.Kind)
		r.held.queueHeld(s, it)
	}
}

// drainToSteady runs rounds with fresh reads: the queue, then every
// reconciler on every object of its kind, until a round writes nothing
// (a steady state, where the steady-state invariants are checked), a
// round ends in the state an earlier round ended in (the drain loops:
// converges is broken, with that evidence), or the drain's bound
// (drainBound) ran out.
func (r *run) drainToSteady(ctx context.Context) {
	r.trace.drain = true
	n, bound := 0, r.ex.o.drainBound()
	ended := map[uint64]int{} // a round's end state: the steps run by then
	for n < bound && ctx.Err() == nil {
		round := append([]item(nil), r.queue.Items...)
		for _, k := range r.book.Keys() {
			if h := r.book.History(k); h.Versions[h.Newest()] != nil {
				r.queue.QueueFor(k)
			}
		}
		for _, it := range r.queue.Items {
			if !slices.Contains(round, it) {
				round = append(round, it)
			}
		}
		wrote := false
		first := len(r.trace.steps)
		for _, it := range round {
			if n >= bound || ctx.Err() != nil {
				break
			}
			r.step(ctx, it, nil, crashPoint{})
			n++
			wrote = wrote || r.trace.lastWrote()
		}
		if !wrote && n < bound && ctx.Err() == nil {
			r.checkSteadyState(ctx, first)
			return
		}
		if ctx.Err() == nil && n < bound {
			h := r.drainState()
			if at, ok := ended[h]; ok {
				r.trace.fail(InvariantConverges, fmt.Sprintf("the drain loops: after %d steps past the chosen ones it was back in the state it reached after %d, every round between writing, so it never reaches a steady state", n, at))
				return
			}
			ended[h] = n
		}
	}
	if ctx.Err() == nil {
		r.trace.fail(InvariantConverges, fmt.Sprintf("no steady state within %d steps after the chosen ones (%s), every round writing", bound, r.ex.o.drainBoundName()))
	}
}
