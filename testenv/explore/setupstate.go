package explore

import (
	"context"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/setup"

	"k8s.io/apimachinery/pkg/runtime/schema"
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
	// disabled are the invariants Options.Disable turns off.
	disabled map[string]bool
	forKinds []schema.GroupVersionKind
	// ownKinds are each reconciler's Owns kinds.
	ownKinds [][]schema.GroupVersionKind
	// uncached are the kinds of Options.Uncached.
	uncached map[schema.GroupVersionKind]bool
	// kinds are the reconcilers' kinds and the informers they watch
	// (setup.Kinds); forKinds, ownKinds and fromSetup are its.
	kinds setup.Kinds
	// cacheUnstructured: Scenario.Manager caches unstructured objects.
	cacheUnstructured bool
	// ogKinds are the For kinds whose Go type has status.observedGeneration.
	ogKinds map[schema.GroupVersionKind]bool
	records []judge.Record
	// fromSetup is the index of the first reconciler Scenario.Setup built
	// (len(Reconcilers) without Setup).
	fromSetup int
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
	if st.kinds, err = setup.Read(opts.Backend.scheme(), recs, acts, st.s.Setup != nil); err != nil {
		return err
	}
	if err := st.validateSetup(opts); err != nil {
		return err
	}
	st.forKinds, st.ownKinds, st.fromSetup = st.kinds.For, st.kinds.Owns, st.kinds.FromSetup
	if err := st.validateDisable(opts); err != nil {
		return err
	}
	if st.uncached, st.cacheUnstructured, err = setup.Uncached(opts.Backend.scheme(), opts.Uncached, st.s.Manager); err != nil {
		return err
	}
	fors := make([]client.Object, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		fors[i] = rc.For
	}
	st.ogKinds = setup.ObservedGeneration(fors, st.forKinds)
	records := make([]setup.Record, len(st.s.Records))
	for i, r := range st.s.Records {
		records[i] = setup.Record{Of: r.Of, Kind: r.Kind, Field: r.Field, ByName: r.ByName}
	}
	st.records, err = setup.Records(opts.Backend.scheme(), records)
	return err
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
	bs, err := setup.Run(st.s.Setup, false, st.s.Manager, c, c, nil, nil, servedapi.New(nil, c))
	if err != nil {
		return err
	}
	names := make([]string, len(st.s.Reconcilers))
	for i, rc := range st.s.Reconcilers {
		names[i] = rc.Name
	}
	if err := st.kinds.Controllers(opts.Backend.scheme(), bs, names); err != nil {
		return err
	}
	st.s.Reconcilers = append([]Reconciler(nil), st.s.Reconcilers...)
	for _, b := range bs {
		st.s.Reconcilers = append(st.s.Reconcilers, Reconciler{Name: b.Name, For: b.For})
	}
	return nil
}

// watched reports that the manager starts the informer of gvk and rep
// when it starts: a controller watches it (internal/informers).
func (st *setupState) watched(gvk schema.GroupVersionKind, rep representation) bool {
	return st.kinds.Watched(gvk, rep)
}

// built is one controller Setup completed (internal/recmgr).
type built = recmgr.Controller
