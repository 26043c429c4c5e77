package explore

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
)

// What a search ran but did not explore. "No violation" rests on the
// schedules that put the reconciles where they could go wrong; two
// classes of reconcile the explorer runs never were, and the Result
// says so (Result.NotExplored), counted from what the schedules did
// (internal/run's Explored), so that the verdict is Unknown for them,
// not "no violation":
//
//   - a reconcile the schedule chose that returned a requeue having read
//     nothing (a rate limiter on the real clock, as Cluster API's
//     ReconcilerRateLimiting, 1 s per object; a timer): the explorer
//     requeues it at once and its delay is waited out only in the drain,
//     so what it would have done at that point of the schedule ran only
//     after the schedule, in the drain, whose reads are fresh;
//   - an informer's store (mgr.GetCache()'s, read for how far it has
//     synced) that no schedule served from a point behind the newest:
//     the wait it guards (a reconcile after its own write, the cache
//     behind) was never put in a schedule.
//   - a reconciler's cached Gets and Lists of a kind that no schedule
//     served behind the newest though an older version (or list) was
//     there to serve: the search's bounds (StaleReads: it opened its
//     windows elsewhere), or the drain, whose reads are fresh, kept them
//     at the newest, and what the reconciler does on a stale read of
//     that kind was never seen. Reads with nothing older to serve (the
//     informer had seen the newest already, or the kind was never
//     written) were not behind in any real manager either, and are
//     left out.

// NotExplored is one class of a reconciler's reconciles the search ran
// but did not explore (notexplored.go). Store is empty for reconciles
// deferred to the drain: Deferred of the Chosen reconciles of the
// schedules' chosen steps returned a requeue having read nothing, and
// InDrain of the Ran reconciles that did not defer ran in the drain.
// Store names an informer's store (its kind) that Reconciler read
// StoreReads times, StoreDrain of them in the drain, and never from a
// point behind the newest.
//
// Cached names a kind whose cached Gets and Lists Reconciler made
// CachedReads times, CachedOlder of them with an older version or list
// there to serve (CachedOlderDrain of those in the drain), none served
// behind.
type NotExplored struct {
	Reconciler                     string
	Deferred, Chosen, InDrain, Ran int
	Store                          string
	StoreReads, StoreDrain         int
	Cached                         string
	CachedReads, CachedOlder       int
	CachedOlderDrain               int
}

func (n NotExplored) String() string {
	if n.Cached != "" {
		return fmt.Sprintf("not explored: %s's cached reads of %s were never served behind the newest: %d of its %d reads had an older version there to serve, %d of those in the drain (fresh reads)",
			n.Reconciler, n.Cached, n.CachedOlder, n.CachedReads, n.CachedOlderDrain)
	}
	if n.Store != "" {
		s := fmt.Sprintf("not explored: the store of the %s informer, which %s read %d times, was never behind: %d of %d reads ran only after the schedule, in the drain",
			n.Store, n.Reconciler, n.StoreReads, n.StoreDrain, n.StoreReads)
		if at := n.StoreReads - n.StoreDrain; at > 0 {
			s += fmt.Sprintf(", the other %d at the newest point", at)
		}
		return s
	}
	return fmt.Sprintf("not explored: %s deferred %d of %d reconciles the schedules chose (a requeue having read nothing, on its own clock), "+
		"so they ran only after the schedule, in the drain: %d of %d of its reconciles that did not defer", n.Reconciler, n.Deferred, n.Chosen, n.InDrain, n.Ran)
}

// Verdict says what the search found: the most severe violation, or no
// violation, and then Unknown for what it did not explore.
func (r *Result) Verdict() string {
	if r.Violation != nil {
		return r.Violation.String()
	}
	if len(r.NotExplored) == 0 {
		return "no violation"
	}
	return "no violation where explored; Unknown: " + strings.Join(notExploredLines(r.NotExplored), "; ")
}

func notExploredLines(ns []NotExplored) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.String()
	}
	return out
}

// counted is what Result.NotExplored rests on: the counts (internal/run)
// of the search's schedules.
type counted = schedrun.Explored

// explored sums the counts of the schedules a search ran,
// its workers' together.
type explored struct {
	mu sync.Mutex
	schedrun.Explored
}

// add adds e's counts.
func (x *explored) add(e schedrun.Explored) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.Explored = sumExplored(x.Explored, e)
}

// counts are the sums so far.
func (x *explored) counts() schedrun.Explored {
	if x == nil {
		return schedrun.Explored{}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return sumExplored(schedrun.Explored{}, x.Explored)
}

// sumExplored is a with b's counts added, in new maps.
func sumExplored(a, b schedrun.Explored) schedrun.Explored {
	out := schedrun.Explored{Reconciles: map[string]*schedrun.Reconciles{}, Stores: map[schedrun.StoreOf]*schedrun.StoreReads{},
		Cached: map[schedrun.StoreOf]*schedrun.CachedReads{}}
	for _, e := range []schedrun.Explored{a, b} {
		for k, c := range e.Reconciles {
			s := cmp.Or(out.Reconciles[k], &schedrun.Reconciles{})
			s.Chosen, s.Deferred, s.Drain, s.DrainDeferred = s.Chosen+c.Chosen, s.Deferred+c.Deferred, s.Drain+c.Drain, s.DrainDeferred+c.DrainDeferred
			out.Reconciles[k] = s
		}
		for k, c := range e.Stores {
			s := cmp.Or(out.Stores[k], &schedrun.StoreReads{})
			s.Reads, s.Drain, s.Behind = s.Reads+c.Reads, s.Drain+c.Drain, s.Behind+c.Behind
			out.Stores[k] = s
		}
		for k, c := range e.Cached {
			s := cmp.Or(out.Cached[k], &schedrun.CachedReads{})
			s.Reads, s.Older, s.OlderDrain, s.Behind = s.Reads+c.Reads, s.Older+c.Older, s.OlderDrain+c.OlderDrain, s.Behind+c.Behind
			out.Cached[k] = s
		}
	}
	return out
}

// notExplored is what the counts e say was not explored, by reconciler,
// its deferrals before its stores before its cached reads.
func notExplored(e schedrun.Explored) []NotExplored {
	var out []NotExplored
	for _, name := range slices.Sorted(maps.Keys(e.Reconciles)) {
		c := e.Reconciles[name]
		if c.Deferred > 0 {
			out = append(out, NotExplored{Reconciler: name, Deferred: c.Deferred, Chosen: c.Chosen,
				InDrain: c.Drain - c.DrainDeferred, Ran: c.Chosen - c.Deferred + c.Drain - c.DrainDeferred})
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(e.Stores), byReconcilerKind) {
		if c := e.Stores[k]; c.Behind == 0 {
			out = append(out, NotExplored{Reconciler: k.Reconciler, Store: k.Kind, StoreReads: c.Reads, StoreDrain: c.Drain})
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(e.Cached), byReconcilerKind) {
		if c := e.Cached[k]; c.Behind == 0 && c.Older > 0 {
			out = append(out, NotExplored{Reconciler: k.Reconciler, Cached: k.Kind, CachedReads: c.Reads, CachedOlder: c.Older, CachedOlderDrain: c.OlderDrain})
		}
	}
	slices.SortStableFunc(out, func(a, b NotExplored) int { return cmp.Compare(a.Reconciler, b.Reconciler) })
	return out
}

func byReconcilerKind(a, b schedrun.StoreOf) int {
	return cmp.Or(cmp.Compare(a.Reconciler, b.Reconciler), cmp.Compare(a.Kind, b.Kind))
}

// counted sets r's counts to c, and what they say was not explored.
func (r *Result) counted(c counted) {
	r.explored, r.NotExplored = c, notExplored(c)
}
