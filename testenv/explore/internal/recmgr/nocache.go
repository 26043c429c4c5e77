package recmgr

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// noCache is what the explorer's manager gives for GetCache: the sources
// the builder makes keep it until Start, which the explorer never calls
// (the explorer serves their kinds itself, internal/served), and any
// other use of it panics with a LackedCache, which Run reports as an
// error naming the method, not as the operator's panic. Cluster API's
// controllers (util/controller's consistency store, on by default) keep
// mgr.GetCache() and read an informer's store from it in each reconcile,
// to wait until the cache holds what they wrote.
//
// Its informers' stores answer from the explorer's modelled cache
// (store.go, Stores; nil: none, as in Run's first check of Setup).
type noCache struct {
	cache.Cache // any method not below: a nil dereference
	stores      Stores
}

// LackedCache is the panic of a call of the explorer's manager's cache:
// Method, of mgr.GetCache().
type LackedCache struct{ Method string }

func (e LackedCache) Error() string {
	return fmt.Sprintf("mgr.GetCache().%s, which the explorer's manager does not have: it serves the controllers' reads itself, "+
		"and of an informer it models only its store's resourceVersion (how far it has synced, what Cluster API's controllers "+
		"wait on: examples/realops6); where the operator needs more of it, turn that off for the exploration", e.Method)
}

// AsLackedCache is p, a recovered panic, as a LackedCache.
func AsLackedCache(p any) (LackedCache, bool) {
	err, ok := p.(error)
	var lc LackedCache
	return lc, ok && errors.As(err, &lc)
}

// IsNoCache reports whether c is the explorer's manager's cache.
func IsNoCache(c any) bool {
	_, ok := c.(noCache)
	return ok
}

func (noCache) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	panic(LackedCache{Method: "Get"})
}
func (noCache) List(context.Context, client.ObjectList, ...client.ListOption) error {
	panic(LackedCache{Method: "List"})
}
func (c noCache) GetInformer(_ context.Context, obj client.Object, _ ...cache.InformerGetOption) (cache.Informer, error) {
	return getInformer(c.stores, obj), nil
}
func (noCache) GetInformerForKind(context.Context, schema.GroupVersionKind, ...cache.InformerGetOption) (cache.Informer, error) {
	panic(LackedCache{Method: "GetInformerForKind"})
}
func (noCache) RemoveInformer(context.Context, client.Object) error {
	panic(LackedCache{Method: "RemoveInformer"})
}
func (noCache) IndexField(context.Context, client.Object, string, client.IndexerFunc) error {
	panic(LackedCache{Method: "IndexField"})
}
func (noCache) Start(context.Context) error { panic(LackedCache{Method: "Start"}) }
func (noCache) WaitForCacheSync(context.Context) bool {
	panic(LackedCache{Method: "WaitForCacheSync"})
}
