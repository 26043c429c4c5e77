package explore

import (
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

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
