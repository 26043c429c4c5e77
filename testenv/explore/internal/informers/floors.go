package informers

import (
	"context"
	"strconv"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// A List the explorer sends the server asks for the newest items. A
// kube-apiserver (1.34 on, ConsistentListFromCache, locked on) serves a
// List without a resourceVersion from the kind's watch cache once the
// cache holds etcd's current revision: after writes of other kinds only a
// progress notification brings it there, which the server asks etcd for
// at most every 100 ms, so such a List waits about half of that (33 ms
// a List of Services in a KubeRay search, two thirds of its time; the
// record invariant's List in a steady state, half of a Gizmo search's).
//
// Every write of a schedule goes through the explorer's clients, one at a
// time (internal/run's calllock.go), after the reset. So when the schedule knows the
// resourceVersion R of a write of a kind that came after every other
// write of it, or a List of the newest R, a List at
// least as new as R (resourceVersionMatch NotOlderThan) holds every
// version a List of the newest would, and the watch cache, which gets to
// R with the write's own event, serves it at once. Such an R is the kind's
// floor; it stays the newest known (a later List's, a no-op write's
// answer, which is an older revision, never lowers it).
//
// A write whose revision the schedule does not learn leaves the kind
// without a floor, and its next List asks for the newest, as the first
// List of a kind in a schedule does: a delete that removed the object
// (the server answers a Status without a resourceVersion, and a read
// after it answers NotFound), a write whose answer was an error that does
// not say nothing was stored, one whose answer the book did not take.
//
// This rests on etcd3's resourceVersions, which the API contract calls
// opaque: etcd3's are its revisions, integers in one order for all
// writes (a write's answer is a new revision, later than every write
// answered before it was sent). A backend whose resourceVersions are not
// integers gets no floor: Wrote and Listed take none, and every List asks
// for the newest (the fake client ignores resourceVersionMatch and lists
// its store). A writer outside the explorer's clients is outside the
// floor's guarantee, and the book's (below): a Remote cluster's own
// controllers, the kinds the API server writes itself (Events, Leases,
// a Pod's graceful deletion ending); their writes may reach a List at
// least as new, or one served from the book, late, as they reach an
// informer.

// kindFloor is what a schedule knows of one kind's newest revision.
type kindFloor struct {
	// rv is the newest resourceVersion known of the kind's writes and
	// Lists, 0 when none is known.
	rv uint64
	// unknown: a write of the kind came after rv, at a revision not known.
	unknown bool
	// covered are the scopes (Scope) of the kind's Lists sent
	// to the server in this schedule with no write since that the book
	// may not hold.
	covered map[string]bool
	// aside: a request of the schedule acted on the kind's objects out
	// of the book's sight (internal/run's writeaside.go): its Lists ask for the newest,
	// none is served from the book.
	aside bool
	// unsure: a write of the kind in this schedule may have stored what
	// the book does not hold (an error answer that does not say nothing
	// was stored, an answer the book did not take, a request aside).
	unsure bool
	// reset is the newest revision the previous schedule knew of the
	// kind, when it is one the reset's emptiness can be checked against
	// (AfterReset), 0 otherwise.
	reset uint64
}

// Floors are, per kind, its floor in this schedule. They are the
// ListFloors of the schedule's FreshLists.
type Floors map[schema.GroupKind]kindFloor

// At returns the resourceVersion a List of gk may ask to be at least as
// new as, "" when it must ask for the newest.
func (l Floors) At(gk schema.GroupKind) string {
	f := l[gk]
	if f.unknown || f.aside || f.rv == 0 {
		return ""
	}
	return strconv.FormatUint(f.rv, 10)
}

// Wrote records a write of gk sent and answered: rv is the version the
// book holds after it ("" when the object is gone), prev the one before
// it, err the answer's error. A write that stored a new revision (a new
// resourceVersion) is later than every write before it: it is the floor.
// One that stored nothing (a no-op's answer, an error that says so) leaves
// the floor as it was. Any other leaves the kind without one.
func (l Floors) Wrote(gk schema.GroupKind, prev, rv string, err error) {
	f := l[gk]
	n, perr := strconv.ParseUint(rv, 10, 64)
	switch {
	case err != nil && StoredNothing(err):
	case err != nil:
		f.unknown, f.covered, f.unsure = true, nil, true // stored or not, the book cannot say
	case rv == "", perr != nil: // gone, which the book holds, or not a revision
		f.unknown = true
	case rv == prev: // a no-op: the object's newest, no new revision
		f.rv = max(f.rv, n)
	default:
		f.rv, f.unknown = max(f.rv, n), false
	}
	l[gk] = f
}

// Written is Wrote for a write whose answer the book did not take: its
// revision is not known, nor what it stored.
func (l Floors) Written(gk schema.GroupKind) {
	f := l[gk]
	f.unknown, f.covered, f.unsure = true, nil, true
	l[gk] = f
}

// Aside records a request that acted on gk's objects out of the book's
// sight, for the rest of the schedule.
func (l Floors) Aside(gk schema.GroupKind) {
	f := l[gk]
	f.unknown, f.covered, f.aside, f.unsure = true, nil, true, true
	l[gk] = f
}

// Newest is the newest resourceVersion known of gk, "" for none.
func (l Floors) Newest(gk schema.GroupKind) string {
	if f := l[gk]; f.rv > 0 {
		return strconv.FormatUint(f.rv, 10)
	}
	return ""
}

// A cached List repeats: KubeRay lists its Pods and Services several
// times a reconcile. Once a List of a scope (kind, namespace, label
// selector) went to the server in a schedule, every object it selected is
// in the book, at its newest version (Model.Fetch observes
// what it did not hold), and so is every object a later write of the
// schedule made, moved or deleted (the answers, or a read after them):
// the book holds every object a List of that scope selects now, as the
// server would list it, and the cache model serves it from there
// (listLagged) without asking. Where a write's answer left the book
// unsure (an error that does not say nothing was stored, an answer it did
// not take) the kind's scopes are forgotten, and the next List sent reads
// again every object the book holds in its scope that its answer left out
// (Model.Fetch): a delete stored despite its error answer is in
// the book after it. A request
// that acts on the kind out of the book's sight (a subresource create,
// internal/run's writeaside.go) ends the kind's Lists from the book for the schedule. A
// field selector, a Limit or raw options are always sent.

// Covers reports that a List of scope went to the server in this
// schedule, its objects since then all in the book.
func (l Floors) Covers(gk schema.GroupKind, scope string) bool {
	f := l[gk]
	return !f.aside && f.covered[scope]
}

// Cover records a List of scope sent to the server.
func (l Floors) Cover(gk schema.GroupKind, scope string) {
	f := l[gk]
	if f.covered == nil {
		f.covered = map[string]bool{}
	}
	f.covered[scope] = true
	l[gk] = f
}

// Listed records a List of gk at rv; newest says it asked for the newest
// (so it is later than every write before it).
func (l Floors) Listed(gk schema.GroupKind, rv string, newest bool) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	f := l[gk]
	f.rv = max(f.rv, n)
	if newest {
		f.unknown = false
	}
	l[gk] = f
}

// Revision is what a reset's leftover of kind gk carries of it
// (reset.Leftover): the newest revision known, and that a write of the
// kind may have stored what the book does not hold.
func (l Floors) Revision(gk schema.GroupKind) (rv uint64, unsure bool) {
	f := l[gk]
	return f.rv, f.unsure || f.aside
}

// Reader reads the server through c as it is now, for the steady-state
// checks (Scenario.Invariant, the record invariant): its Lists at least
// as new as the schedule's writes of their kind, as the reconcilers'
// Lists, its Gets the newest.
func (l Floors) Reader(c client.WithWatch) client.Reader {
	return freshReader{FreshLists{WithWatch: c, Floors: l}}
}

// freshReader is a reader, and only that: a write through it would not
// go through the explorer's clients, so no floor would say it was made.
type freshReader struct{ c FreshLists }

func (f freshReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	return f.c.Get(ctx, key, obj, opts...)
}

func (f freshReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return f.c.List(ctx, list, opts...)
}

// After the reset, the first List of a scope. A List of a kind the
// schedule has not written yet asks for the newest (Floors.At), which
// waits for the kind's watch cache to reach etcd's revision: KubeRay's
// first Lists of Pods and of Services, 10 to 12 ms each a schedule, where
// a List at least as new as a revision the cache holds takes 2 to 3.
//
// The reset deleted every object the previous schedule's book held. Of a
// kind whose every write in that schedule the book holds (none whose
// answer left it unsure), with R the newest revision the schedule knew of
// the kind (its writes' answers, its Lists), an object the server holds
// in a List's scope now was in it at R: every write of the kind after R
// (the reset's finalizer removals and deletions, the schedule's deletions
// whose answer names no revision) removes an object or marks it deleted,
// and moves none into a scope. So a List at least as new as R that is
// empty is what a List of the newest holds. One that is not (an object
// the reset could not delete, one the book never held, a deletion the
// cache has not reached) is set aside, and the List asks for the newest.
// The empty List is no floor for the kind: a deletion after R may not be
// in it, and another scope checks again. As the floor, this holds for
// writes through the explorer's clients and the reset; a writer outside
// them (floors.go) is outside it.

// AfterReset seeds the schedule's kinds with the previous schedule's
// Newest revisions, from left, what the reset deleted. A kind of which the
// reset restored an object there before the search (Leftover.Start) has
// none: the restore may move an object into a scope after R.
func (l Floors) AfterReset(left []reset.Leftover) {
	unsure := map[schema.GroupKind]bool{}
	for _, x := range left {
		if x.Carried {
			continue // not deleted by this reset: no revision of its kind
		}
		gk := x.Key.GVK.GroupKind()
		unsure[gk] = unsure[gk] || x.KindUnsure || x.KindRV == 0 || x.Start != nil
		f := l[gk]
		f.reset = max(f.reset, x.KindRV)
		l[gk] = f
	}
	for gk, u := range unsure {
		if u {
			delete(l, gk)
		}
	}
}

// SinceReset is the revision a List of gk that the schedule has neither
// Written nor listed yet may check the reset's emptiness at, "" for none.
func (l Floors) SinceReset(gk schema.GroupKind) string {
	f := l[gk]
	if f.reset == 0 || f.rv != 0 || f.unknown || f.aside || f.unsure {
		return ""
	}
	return strconv.FormatUint(f.reset, 10)
}
