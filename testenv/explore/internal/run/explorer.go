package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/setup"

	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Explorer is the search a run belongs to, as the run reads it (the
// root's explorer implements it). A run asks it at each use, never
// keeping an answer: Options is read at each cached read, crash point
// and drain, as the explorer's Options and test knobs are at that
// moment. A nil Explorer is a run alone (tests): no scenario, the
// default bounds, spanning windows.
type Explorer interface {
	// Scenario is what the explorer read of the scenario before the
	// first schedule; it does not change during the search.
	Scenario() *Scenario
	// Options are the search's bounds as the run reads them.
	Options() Options
	// ItemID names a queued schedule.Item, as the seeds do (schedule.ID).
	ItemID(it schedule.Item) string
	// Create creates one of the scenario's objects on the backend, and
	// returns what the server stored (nil: read it).
	Create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error)
}

// Scenario is what a run reads of the explorer's Scenario and of what
// the explorer read from it once (the root's setupState fills it).
type Scenario struct {
	// Objects are created at the start of every schedule.
	Objects []client.Object
	// Reconcilers are the scenario's, then one per controller Setup
	// built (from FromSetup, with New nil); Actions the user's writes.
	Reconcilers []Reconciler
	Actions     []Action
	FromSetup   int
	// Setup, Manager and Invariant are the Scenario's.
	Setup     func(mgr manager.Manager) error
	Manager   *manager.Options
	Invariant func(ctx context.Context, r client.Reader) error
	// Disabled are the invariants Options.Disable turns off.
	Disabled map[string]bool
	// Kinds are the reconcilers' kinds and the informers the manager
	// starts (setup.Kinds); ForKinds and OwnKinds are each reconciler's
	// kinds, its For and Owns.
	Kinds    setup.Kinds
	ForKinds []schema.GroupVersionKind
	OwnKinds [][]schema.GroupVersionKind
	// Uncached are the kinds read uncached; CacheUnstructured that the
	// manager caches unstructured objects.
	Uncached          map[schema.GroupVersionKind]bool
	CacheUnstructured bool
	// OGKinds are the For kinds with status.observedGeneration; Records
	// the scenario's records (the steady-state checks).
	OGKinds map[schema.GroupVersionKind]bool
	Records []judge.Record
}

// Reconciler is one of the scenario's reconcilers as a run builds and
// routes it.
type Reconciler struct {
	Name                    string
	Predicates, EventFilter []predicate.Predicate
	New                     func(c client.Client, apiReader client.Reader) reconcile.Reconciler
}

// Action is one of the scenario's user writes.
type Action struct {
	Name string
	Run  func(ctx context.Context, c client.Client) error
}

// Options are the search's bounds as a run reads them.
type Options struct {
	// Versions and StaleReads bound the cached reads' lags and the stale
	// windows (informers.Setup); Spans, that windows stay open past
	// their step.
	Versions, StaleReads int
	Spans                bool
	// Crashes bounds a schedule's crashes, Faults their kinds.
	Crashes int
	Faults  faults.Bounds
	// DrainBound is how many steps a drain may run; DrainBoundName says
	// where it comes from, for a report.
	DrainBound     int
	DrainBoundName string
}

// optionsOf are ex's Options now; a run alone (no Explorer) has no
// bound and its windows span reconciles.
func optionsOf(ex Explorer) Options {
	if ex == nil {
		return Options{Spans: true}
	}
	return ex.Options()
}

// Chooser makes the choices of one schedule (search.Chooser) and, in the
// fault phase, draws its faults.
type Chooser struct {
	*search.Chooser
	// Faults, in the fault phase, are the schedule's faults
	// (internal/faults).
	Faults *faults.Plan
}

// Item picks which of the n queued items runs next.
func (c *Chooser) Item(n int) int {
	if c.Faults != nil {
		return c.Faults.Item(c.Chooser, n)
	}
	return c.Choose(n)
}

// Cut are the bounds that cut a schedule's choices, as bits: a choice a
// deeper bound would offer was not offered.
type Cut uint8

// The bounds that may cut a schedule's choices.
const (
	CutDepth Cut = 1 << iota
	CutVersions
	CutStaleReads
)

// NoteCut records that bound b cut the schedule's choices at its current
// chosen step: a schedule that reached Depth chosen steps with more
// queued; a cached read with more versions, or more different lists,
// than Versions; a cached read with a version to choose from after
// StaleReads stale ones.
func (t *Trace) NoteCut(b Cut) {
	if t.Cut == 0 {
		t.CutAt = t.At
	}
	t.Cut |= b
}
