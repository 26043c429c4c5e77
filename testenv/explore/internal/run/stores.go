package run

import (
	"cmp"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// cacheStores is the run's cache model as the stores of the informers
// mgr.GetCache() gives read it (recmgr.Stores): how far the informer of a
// kind has synced, which the cache model chooses
// (informers.Cache.StoreSynced). A reconcile reads it as it calls the
// clients, under the run's callLock. An error the cache model cannot
// answer with ends the run, as the served API's do; a crashed process's
// store has synced nothing more.
type cacheStores struct{ r *Run }

func (c cacheStores) Synced(obj client.Object) string {
	r := c.r
	defer r.calls.call()()
	if r.stopped() {
		return ""
	}
	gvk, err := apiutil.GVKForObject(obj, r.server.Scheme())
	if err == nil {
		var rv string
		var behind bool
		if rv, behind, err = r.Cache.StoreSynced(gvk, obj); err == nil {
			if s := r.Trace.Cur; s != nil { // the Explored count (explored.go)
				s.storeReads++
				r.Trace.Explored.storeRead(s.Step.Reconciler, gvk.Kind, s.Step.Drain, behind)
			}
			return rv
		}
	}
	r.Err = cmp.Or(r.Err, err)
	return ""
}
