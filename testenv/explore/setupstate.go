package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"errors"
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// The setup state: what the explorer reads of the Scenario and Options
// once, before the first schedule, and every schedule and worker of the
// search shares unchanged; the search's own state is the explorer's
// (search.go).

// setupState is what the explorer reads of the Scenario before the first
// schedule (setup.go, builtin.go) and does not change during the search.
type setupState struct {
	s Scenario
	// disabled are the invariants Options.Disable turns off.
	disabled map[string]bool
	forKinds []schema.GroupVersionKind
	// ownKinds are each reconciler's Owns kinds.
	ownKinds [][]schema.GroupVersionKind
	// uncached are the kinds of Options.Uncached.
	uncached map[schema.GroupVersionKind]bool
	// watchedInformers are the informers the reconcilers watch (For,
	// Owns), started with the manager; watchedKinds the kinds Setup's
	// controllers watch, in a representation the explorer does not read
	// (each of the kind's informers is taken for started with it).
	watchedInformers map[informerKey]bool
	watchedKinds     map[schema.GroupVersionKind]bool
	// cacheUnstructured: Scenario.Manager caches unstructured objects.
	cacheUnstructured bool
	// ogKinds are the For kinds whose Go type has status.observedGeneration.
	ogKinds map[schema.GroupVersionKind]bool
	records []judge.Record
	// fromSetup is the index of the first reconciler Scenario.Setup built
	// (len(Reconcilers) without Setup).
	fromSetup int
}

// namePattern is a reconciler's or an action's name: none of the seed's
// separators (seed.go). The underscore is controller-runtime's too
// (controller.New("machine_autoscaler_controller", ...)).
var namePattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// validate checks the scenario against opts and reads its kinds.
func (st *setupState) validate(opts Options) error {
	if len(st.s.Reconcilers) == 0 && st.s.Setup == nil {
		return errors.New("explore: the scenario has no reconcilers and no Setup")
	}
	names := map[string]bool{}
	for i, rc := range st.s.Reconcilers {
		if !namePattern.MatchString(rc.Name) || names[rc.Name] {
			return fmt.Errorf("explore: reconciler %d: name %q is empty, repeated or not [A-Za-z0-9._-]", i, rc.Name)
		}
		names[rc.Name] = true
		if rc.For == nil || rc.New == nil {
			return fmt.Errorf("explore: reconciler %q: For and New must be set", rc.Name)
		}
		gvk, err := apiutil.GVKForObject(rc.For, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: reconciler %q: %w", rc.Name, err)
		}
		st.forKinds = append(st.forKinds, gvk)
		st.watch(gvk, repOf(rc.For))
		var owns []schema.GroupVersionKind
		for j, o := range rc.Owns {
			if o == nil {
				return fmt.Errorf("explore: reconciler %q: Owns[%d] is nil", rc.Name, j)
			}
			og, err := apiutil.GVKForObject(o, opts.Backend.scheme())
			if err != nil {
				return fmt.Errorf("explore: reconciler %q: Owns[%d]: %w", rc.Name, j, err)
			}
			owns = append(owns, og)
			st.watch(og, repOf(o))
		}
		st.ownKinds = append(st.ownKinds, owns)
	}
	for i, a := range st.s.Actions {
		if !namePattern.MatchString(a.Name) || names["!"+a.Name] || a.Run == nil {
			return fmt.Errorf("explore: action %d: name %q is empty, repeated or not [A-Za-z0-9._-], or Run is nil", i, a.Name)
		}
		names["!"+a.Name] = true
	}
	st.fromSetup = len(st.s.Reconcilers)
	if err := st.validateSetup(opts); err != nil {
		return err
	}
	return st.validateBuiltin(opts)
}

// watch notes that a reconciler watches gvk through the informer of rep.
func (st *setupState) watch(gvk schema.GroupVersionKind, rep representation) {
	if st.watchedInformers == nil {
		st.watchedInformers = map[informerKey]bool{}
	}
	st.watchedInformers[informerKey{GVK: gvk, Rep: rep}] = true
}

// watched reports that the manager starts the informer of gvk and rep
// when it starts: a controller watches it (internal/informers).
func (st *setupState) watched(gvk schema.GroupVersionKind, rep representation) bool {
	return st.watchedInformers[informerKey{GVK: gvk, Rep: rep}] || st.watchedKinds[gvk]
}
