package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"

	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The run of one schedule is internal/run's (schedrun.Run): its steps,
// clients, cache model, queue, crashes and trace. The search makes a run
// for each schedule (begin.go), drives its chosen steps (search.go,
// minimise.go) and reads what it did and broke from its fields; the run
// reads the search only through runView.

// run is one schedule (schedrun.Run).
type run = schedrun.Run

// chooser makes the choices of one schedule and, in the fault phase,
// draws its faults (schedrun.Chooser).
type chooser = schedrun.Chooser

// newRun is a schedule of ex on server, with nothing recorded yet; ex is
// nil in tests of a run alone.
func newRun(ex *explorer, server client.Client) *run {
	if ex == nil {
		return schedrun.New(nil, server)
	}
	return schedrun.New(runView{ex}, server)
}

// runView is the explorer as its runs read it (schedrun.Explorer): each
// method reads the explorer when the run asks.
type runView struct{ ex *explorer }

// Scenario is what the explorer read of the Scenario (setupState.forRun).
func (v runView) Scenario() *schedrun.Scenario { return &v.ex.setup.forRun }

// Options are the explorer's bounds, as its Options and test knobs say
// now.
func (v runView) Options() schedrun.Options {
	o := v.ex.o
	return schedrun.Options{Versions: o.Versions, StaleReads: o.StaleReads, Spans: v.spans(), Crashes: o.Crashes,
		Faults:     faults.Bounds{LeaderChange: o.LeaderChange, InFlightWrite: o.InFlightWrite, InFlightWrites: o.InFlightWrites},
		DrainBound: o.drainBound(), DrainBoundName: o.drainBoundName()}
}

func (v runView) ItemID(it item) string { return v.ex.setup.itemID(it) }

func (v runView) Create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
	return v.ex.o.Backend.create(ctx, c, obj)
}

// spans reports whether windows stay open past their step: in every
// search but one at the default bounds (deepening level 0, or bounds set
// to them), the fault phase's and a replay's included. At the default
// bounds a window ends with its reconcile, as it did before windows
// spanned reconciles: their two units already reach one informer stale
// across two reconciles (as two windows), and keeping the space of the
// first level keeps the bugs it finds as fast (RabbitMQ's deleted
// cluster, found at level 0 with windows of one reconcile, was not with
// spanning ones within the deepening's 6 minutes: docs/explore.md,
// Limits).
func (v runView) spans() bool {
	if v.ex.knobs.oneReconcile {
		return false
	}
	o := v.ex.o
	return v.ex.faults || o.Replay != "" || o.Depth != defaultDepth || o.Versions != defaultVersions || o.StaleReads != defaultStaleReads
}

// drainCap bounds a drain when Options.MaxSteps is not set: past it, a
// drain whose every round writes is taken for one that never stops.
const drainCap = 1000

// drainBound is how many steps a drain may run.
func (o *Options) drainBound() int {
	if o.MaxSteps > 0 {
		return o.MaxSteps
	}
	return drainCap
}

// drainBoundName says where drainBound comes from, for a report.
func (o *Options) drainBoundName() string {
	if o.MaxSteps > 0 {
		return "Options.MaxSteps"
	}
	return "the default bound, with Options.MaxSteps unset"
}

// violationOf is the violation b records, sharing its names and lists.
func violationOf(b *violation.Record) *Violation {
	return &Violation{Invariant: b.Invariant, Message: b.Message, Cause: b.Cause, Also: b.Also, names: b.Names, about: b.About, alsoAbout: b.AlsoAbout}
}
