package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Scenario.Setup runs the operator's own SetupWithManager on a manager
// that builds nothing but records: each controller it completes becomes a
// reconciler of the scenario (named as the controller), and its watches
// (For, Owns, Watches, with their predicates and event handlers) decide
// what each write queues: the explorer calls the operator's handlers with
// the write's event. Setup runs again for every schedule and every
// restart, with the explorer's clients as the manager's GetClient and
// GetAPIReader.

// built is one controller Setup completed (internal/recmgr).
type built = recmgr.Controller

// runSetup runs setup on a recording manager over c and api
// (internal/recmgr), with the operator's manager options opts; again: not
// for the first time in this Run. The field indexes it registers go into
// indexes, their informers and those its controllers start before the
// election into indexed (nil: dropped). proc serves the manager's config
// (internal/served) and gets the caches Setup adds.
func runSetup(setup func(manager.Manager) error, again bool, opts *manager.Options, c client.Client, api client.Reader, indexes recmgr.Indexes, indexed map[informerKey]bool, proc *servedapi.Process) ([]built, error) {
	env := recmgr.Env{Client: c, API: api, Controller: controllerOptions(opts), Proc: proc, Indexes: indexes}
	if indexed != nil {
		env.Early = func(gvk schema.GroupVersionKind, obj client.Object) {
			indexed[informerKey{GVK: gvk, Rep: repOf(obj)}] = true
		}
	}
	return recmgr.Run(setup, again, env)
}

// validateSetup runs Scenario.Setup once, on a client of the backend, and
// adds a reconciler for each controller it builds.
func (st *setupState) validateSetup(opts Options) error {
	if st.s.Setup == nil {
		return nil
	}
	c, err := opts.Backend.begin(context.Background(), nil)
	if err != nil {
		return err
	}
	bs, err := runSetup(st.s.Setup, false, st.s.Manager, c, c, nil, nil, servedapi.New(nil, c))
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return fmt.Errorf("explore: Scenario.Setup built no controller")
	}
	st.fromSetup = len(st.s.Reconcilers)
	st.s.Reconcilers = append([]Reconciler(nil), st.s.Reconcilers...)
	for _, b := range bs {
		if !namePattern.MatchString(b.Name) {
			return fmt.Errorf("explore: Scenario.Setup: controller name %q is not [A-Za-z0-9._-] (give it one with Named)", b.Name)
		}
		for _, rc := range st.s.Reconcilers {
			if rc.Name == b.Name {
				return fmt.Errorf("explore: Scenario.Setup: controller %q: a reconciler of that name exists", b.Name)
			}
		}
		gvk, err := apiutil.GVKForObject(b.For, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: controller %q: %w", b.Name, err)
		}
		st.s.Reconcilers = append(st.s.Reconcilers, Reconciler{Name: b.Name, For: b.For})
		st.forKinds = append(st.forKinds, gvk)
		if st.watchedKinds == nil {
			st.watchedKinds = map[schema.GroupVersionKind]bool{}
		}
		st.watchedKinds[gvk] = true
		for _, w := range b.Watches {
			st.watchedKinds[w.GVK] = true
		}
		st.ownKinds = append(st.ownKinds, nil)
	}
	return nil
}
