package explore

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// uncachedRead reports a read of kind gvk into obj (an object or a list)
// through the reconcilers' client that a manager's client sends to the
// server, never its cache: a kind of Options.Uncached or of the operator's
// Scenario.Manager.Client.Cache.DisableFor, or an unstructured object
// unless Client.Cache.Unstructured says to cache those, as
// controller-runtime's client decides.
func (r *run) uncachedRead(gvk schema.GroupVersionKind, obj runtime.Object) bool {
	if r.ex.uncached[gvk] {
		return true
	}
	_, unstructured := obj.(runtime.Unstructured)
	return unstructured && !r.ex.cacheUnstructured
}
