package setup

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// Scenario.Setup runs the operator's own SetupWithManager on a manager
// that builds nothing but records: each controller it completes becomes a
// reconciler of the scenario (named as the controller), and its watches
// (For, Owns, Watches, with their predicates and event handlers) decide
// what each write queues: the explorer calls the operator's handlers with
// the write's event. Setup runs again for every schedule and every
// restart, with the explorer's clients as the manager's GetClient and
// GetAPIReader.

// Run runs setup on a recording manager over c and api
// (internal/recmgr), with the operator's manager options opts; again: not
// for the first time in this Run. The field indexes it registers go into
// indexes, their informers and those its controllers start before the
// election into indexed (nil: dropped). proc serves the manager's config
// (internal/served) and gets the caches Setup adds; stores answer the
// stores of the informers of the manager's cache (nil: none).
func Run(setup func(manager.Manager) error, again bool, opts *manager.Options, c client.Client, api client.Reader, indexes recmgr.Indexes, indexed map[informers.Key]bool, proc *servedapi.Process, stores recmgr.Stores) ([]recmgr.Controller, error) {
	env := recmgr.Env{Client: c, API: api, Controller: controllerOptions(opts), Proc: proc, Indexes: indexes, Stores: stores}
	if indexed != nil {
		env.Early = func(gvk schema.GroupVersionKind, obj client.Object) {
			indexed[informers.Key{GVK: gvk, Rep: informers.RepOf(obj)}] = true
		}
	}
	return recmgr.Run(setup, again, env)
}

// A controller with warm-up (controller-runtime's EnableWarmup, its own
// controller.Options or, unset there, the manager's Options.Controller)
// starts its sources when its manager starts, before the election, and so
// does one without leader election: on a standby, the informers they
// watch run all along, on the standby's own watch, as a field index's do
// (internal/informers: early). After a leader change, a read through one of them
// older than what the old leader's informers were served needs no second
// API server: that watch may lag on one.

// controllerOptions are the controller options Setup's manager gives the
// builder (mgr.GetControllerOptions), which defaults each controller's
// from them: the operator's, Scenario.Manager's Controller, as
// ctrl.NewManager's manager gives them; name validation off, as Setup
// runs again, on a new manager, with the same names.
func controllerOptions(opts *manager.Options) config.Controller {
	var c config.Controller
	if opts != nil {
		c = opts.Controller
	}
	c.SkipNameValidation = ptr.To(true)
	return c
}
