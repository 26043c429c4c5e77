package explore

import (
	"context"

	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/setup"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The setup state: what the explorer reads of the Scenario and Options
// once, before the first schedule, and every schedule and worker of the
// search shares unchanged; the search's own state is the explorer's
// (search.go).

// setupState is what the explorer reads of the Scenario before the first
// schedule (internal/setup) and does not change during the search.
type setupState struct {
	s Scenario
	// forRun is what the schedules' runs read of it (schedrun.Scenario):
	// the scenario's objects, reconcilers and actions, the invariants
	// Options.Disable turns off, the reconcilers' kinds and the informers
	// they watch (setup.Kinds: For, Owns and FromSetup are its), the
	// kinds of Options.Uncached, whether Scenario.Manager caches
	// unstructured objects, the For kinds whose Go type has
	// status.observedGeneration and the Records.
	forRun schedrun.Scenario
}

// validate checks the scenario against opts and reads its kinds
// (internal/setup), runs its Setup once (validateSetup), and reads the
// kinds read uncached and its Records.
func (st *setupState) validate(opts Options) error {
	recs := make([]setup.Reconciler, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		recs[i] = setup.Reconciler{Name: rc.Name, For: rc.For, Owns: rc.Owns, HasNew: rc.New != nil}
	}
	acts := make([]setup.Action, len(st.s.Actions))
	for i, a := range st.s.Actions {
		acts[i] = setup.Action{Name: a.Name, HasRun: a.Run != nil}
	}
	var err error
	if st.forRun.Kinds, err = setup.Read(opts.Backend.scheme(), recs, acts, st.s.Setup != nil); err != nil {
		return err
	}
	if err := st.validateSetup(opts); err != nil {
		return err
	}
	st.forRun.ForKinds, st.forRun.OwnKinds, st.forRun.FromSetup = st.forRun.Kinds.For, st.forRun.Kinds.Owns, st.forRun.Kinds.FromSetup
	if err := st.validateDisable(opts); err != nil {
		return err
	}
	if st.forRun.Uncached, st.forRun.CacheUnstructured, err = setup.Uncached(opts.Backend.scheme(), opts.Uncached, st.s.Manager); err != nil {
		return err
	}
	fors := make([]client.Object, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		fors[i] = rc.For
	}
	st.forRun.OGKinds = setup.ObservedGeneration(fors, st.forRun.ForKinds)
	records := make([]setup.Record, len(st.s.Records))
	for i, r := range st.s.Records {
		records[i] = setup.Record{Of: r.Of, Kind: r.Kind, Field: r.Field, ByName: r.ByName}
	}
	if st.forRun.Records, err = setup.Records(opts.Backend.scheme(), records); err != nil {
		return err
	}
	st.readForRun()
	return nil
}

// readForRun copies what a run reads of the scenario, Setup's
// reconcilers included, into forRun.
func (st *setupState) readForRun() {
	f := &st.forRun
	f.Objects, f.Setup, f.Manager, f.Invariant = st.s.Objects, st.s.Setup, st.s.Manager, st.s.Invariant
	f.Reconcilers = make([]schedrun.Reconciler, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		f.Reconcilers[i] = schedrun.Reconciler{Name: rc.Name, New: rc.New, Predicates: rc.Predicates, EventFilter: rc.EventFilter}
	}
	f.Actions = make([]schedrun.Action, len(st.s.Actions))
	for i, a := range st.s.Actions {
		f.Actions[i] = schedrun.Action{Name: a.Name, Run: a.Run}
	}
}

// validateSetup runs Scenario.Setup once, on a recording manager, and
// adds a reconciler for each controller it built (setup.Controllers).
func (st *setupState) validateSetup(opts Options) error {
	if st.s.Setup == nil {
		return nil
	}
	c, err := opts.Backend.begin(context.Background(), nil)
	if err != nil {
		return err
	}
	proc := servedapi.New(nil, c)
	defer proc.Stop() // what Setup started with explore.ContextOf ends with this first run
	bs, err := setup.Run(st.s.Setup, false, st.s.Manager, c, c, nil, nil, proc, nil)
	if err != nil {
		return err
	}
	names := make([]string, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		names[i] = rc.Name
	}
	if err := st.forRun.Kinds.Controllers(opts.Backend.scheme(), bs, names); err != nil {
		return err
	}
	st.s.Reconcilers = append([]Reconciler(nil), st.s.Reconcilers...)
	for _, b := range bs {
		st.s.Reconcilers = append(st.s.Reconcilers, Reconciler{Name: b.Name, For: b.For})
	}
	return nil
}
