package setup

import (
	"errors"
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// namePattern is a reconciler's or an action's name: none of the seed's
// separators (internal/schedule). The underscore is controller-runtime's
// too (controller.New("machine_autoscaler_controller", ...)).
var namePattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// ValidName reports whether name may name a reconciler, an action or a
// controller Setup built.
func ValidName(name string) bool { return namePattern.MatchString(name) }

// A Reconciler is what Read reads of a Scenario.Reconciler: its Name,
// For and Owns, and whether its New is set.
type Reconciler struct {
	Name   string
	For    client.Object
	Owns   []client.Object
	HasNew bool
}

// An Action is what Read reads of a Scenario.Action: its Name, and
// whether its Run is set.
type Action struct {
	Name   string
	HasRun bool
}

// Kinds are the kinds of the scenario's reconcilers: each one's For
// kind and Owns kinds, by index; the informers they watch (For, Owns),
// started with the manager; and the kinds Setup's controllers watch, in
// a representation the explorer does not read (each of the kind's
// informers is taken for started with it).
type Kinds struct {
	For  []schema.GroupVersionKind
	Owns [][]schema.GroupVersionKind
	// FromSetup is the index of the first reconciler Setup built
	// (len(For) without Setup).
	FromSetup int

	informers map[informers.Key]bool
	kinds     map[schema.GroupVersionKind]bool
}

// Read checks the scenario's reconcilers and actions (hasSetup: its
// Setup is set) and reads their kinds through scheme.
func Read(scheme *runtime.Scheme, recs []Reconciler, actions []Action, hasSetup bool) (Kinds, error) {
	var k Kinds
	if len(recs) == 0 && !hasSetup {
		return k, errors.New("explore: the scenario has no reconcilers and no Setup")
	}
	names := map[string]bool{}
	for i, rc := range recs {
		if !ValidName(rc.Name) || names[rc.Name] {
			return k, fmt.Errorf("explore: reconciler %d: name %q is empty, repeated or not [A-Za-z0-9._-]", i, rc.Name)
		}
		names[rc.Name] = true
		if rc.For == nil || !rc.HasNew {
			return k, fmt.Errorf("explore: reconciler %q: For and New must be set", rc.Name)
		}
		gvk, err := apiutil.GVKForObject(rc.For, scheme)
		if err != nil {
			return k, fmt.Errorf("explore: reconciler %q: %w", rc.Name, err)
		}
		k.For = append(k.For, gvk)
		k.watch(gvk, informers.RepOf(rc.For))
		var owns []schema.GroupVersionKind
		for j, o := range rc.Owns {
			if o == nil {
				return k, fmt.Errorf("explore: reconciler %q: Owns[%d] is nil", rc.Name, j)
			}
			og, err := apiutil.GVKForObject(o, scheme)
			if err != nil {
				return k, fmt.Errorf("explore: reconciler %q: Owns[%d]: %w", rc.Name, j, err)
			}
			owns = append(owns, og)
			k.watch(og, informers.RepOf(o))
		}
		k.Owns = append(k.Owns, owns)
	}
	for i, a := range actions {
		if !ValidName(a.Name) || names["!"+a.Name] || !a.HasRun {
			return k, fmt.Errorf("explore: action %d: name %q is empty, repeated or not [A-Za-z0-9._-], or Run is nil", i, a.Name)
		}
		names["!"+a.Name] = true
	}
	k.FromSetup = len(recs)
	return k, nil
}

// Controllers checks the controllers a first run of Setup built (bs),
// beside the reconcilers named names, and adds their kinds to k: each
// one's For kind (no Owns: its watches decide what it is queued for),
// and the kinds it watches.
func (k *Kinds) Controllers(scheme *runtime.Scheme, bs []recmgr.Controller, names []string) error {
	if len(bs) == 0 {
		return fmt.Errorf("explore: Scenario.Setup built no controller")
	}
	k.FromSetup = len(names)
	for _, b := range bs {
		if !ValidName(b.Name) {
			return fmt.Errorf("explore: Scenario.Setup: controller name %q is not [A-Za-z0-9._-] (give it one with Named)", b.Name)
		}
		for _, name := range names {
			if name == b.Name {
				return fmt.Errorf("explore: Scenario.Setup: controller %q: a reconciler of that name exists", b.Name)
			}
		}
		gvk, err := apiutil.GVKForObject(b.For, scheme)
		if err != nil {
			return fmt.Errorf("explore: controller %q: %w", b.Name, err)
		}
		names = append(names, b.Name)
		k.For = append(k.For, gvk)
		if k.kinds == nil {
			k.kinds = map[schema.GroupVersionKind]bool{}
		}
		k.kinds[gvk] = true
		for _, w := range b.Watches {
			k.kinds[w.GVK] = true
		}
		k.Owns = append(k.Owns, nil)
	}
	return nil
}

// watch notes that a reconciler watches gvk through the informer of rep.
func (k *Kinds) watch(gvk schema.GroupVersionKind, rep servedapi.Rep) {
	if k.informers == nil {
		k.informers = map[informers.Key]bool{}
	}
	k.informers[informers.Key{GVK: gvk, Rep: rep}] = true
}

// Watched reports that the manager starts the informer of gvk and rep
// when it starts: a controller watches it (internal/informers).
func (k *Kinds) Watched(gvk schema.GroupVersionKind, rep servedapi.Rep) bool {
	return k.informers[informers.Key{GVK: gvk, Rep: rep}] || k.kinds[gvk]
}
