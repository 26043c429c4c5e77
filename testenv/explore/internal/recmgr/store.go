package recmgr

import (
	goruntime "runtime"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// An informer's store, as a reconcile reads it. Cluster API's controllers
// (util/controller's consistency store, on by default) keep
// mgr.GetCache(), get from it the informer of a kind they wrote, and
// before each reconcile compare its store's LastStoreSyncResourceVersion
// with the resourceVersion of their last write of that kind: below it,
// the reconcile waits (a requeue). The explorer serves that kind's cached
// reads itself (internal/informers), so the store answers from there
// (Stores): the resourceVersion the explorer's modelled informer holds,
// at a point of the schedule the explorer chooses, as it chooses a
// cached List's. What else a store or an informer can do (its items, its
// event handlers, its indexer) the explorer does not model: each panics
// with a LackedCache naming itself, which Run reports as an error.

// Stores is what the explorer's modelled cache answers of an informer's
// store.
type Stores interface {
	// Synced is the resourceVersion the store of the informer of obj's
	// kind and representation has synced to ("" for none yet): one the
	// server answered, of a version the informer has then delivered.
	Synced(obj client.Object) string
}

// getInformer is the informer of obj's kind and representation of the
// explorer's manager's cache: its store answers from stores.
func getInformer(stores Stores, obj client.Object) cache.Informer {
	if stores == nil {
		panic(LackedCache{Method: "GetInformer"})
	}
	return storeInformer{obj: obj, stores: stores}
}

// storeInformer is an informer of the explorer's manager's cache: its
// store's resourceVersion and HasSynced are modelled (it serves what its
// kind's cached reads served, which have all synced), nothing else.
type storeInformer struct {
	toolscache.SharedIndexInformer // methods of newer client-go versions: a nil dereference, which Lacked names
	obj                            client.Object
	stores                         Stores
}

const informerMethod = "GetInformer(...)."

func (i storeInformer) GetStore() toolscache.Store { return syncedStore{i: i} }
func (i storeInformer) HasSynced() bool            { return true }

// LastSyncResourceVersion is the store's: the explorer's informers list
// nothing of their own.
func (i storeInformer) LastSyncResourceVersion() string { return i.stores.Synced(i.obj) }

func (storeInformer) AddEventHandler(toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	panic(LackedCache{Method: informerMethod + "AddEventHandler"})
}
func (storeInformer) AddEventHandlerWithResyncPeriod(toolscache.ResourceEventHandler, time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	panic(LackedCache{Method: informerMethod + "AddEventHandlerWithResyncPeriod"})
}
func (storeInformer) RemoveEventHandler(toolscache.ResourceEventHandlerRegistration) error {
	panic(LackedCache{Method: informerMethod + "RemoveEventHandler"})
}
func (storeInformer) GetController() toolscache.Controller {
	panic(LackedCache{Method: informerMethod + "GetController"})
}
func (storeInformer) Run(<-chan struct{}) { panic(LackedCache{Method: informerMethod + "Run"}) }
func (storeInformer) IsStopped() bool     { panic(LackedCache{Method: informerMethod + "IsStopped"}) }
func (storeInformer) AddIndexers(toolscache.Indexers) error {
	panic(LackedCache{Method: informerMethod + "AddIndexers"})
}
func (storeInformer) GetIndexer() toolscache.Indexer {
	panic(LackedCache{Method: informerMethod + "GetIndexer"})
}
func (storeInformer) SetTransform(toolscache.TransformFunc) error {
	panic(LackedCache{Method: informerMethod + "SetTransform"})
}

// syncedStore is an informer's store: its resourceVersion only.
type syncedStore struct {
	toolscache.Store // methods of newer client-go versions: a nil dereference, which Lacked names
	i                storeInformer
}

const storeMethod = informerMethod + "GetStore()."

// LastStoreSyncResourceVersion is what the explorer's modelled informer
// holds of the kind (Stores.Synced).
func (s syncedStore) LastStoreSyncResourceVersion() string { return s.i.stores.Synced(s.i.obj) }

func (syncedStore) Add(any) error    { panic(LackedCache{Method: storeMethod + "Add"}) }
func (syncedStore) Update(any) error { panic(LackedCache{Method: storeMethod + "Update"}) }
func (syncedStore) Delete(any) error { panic(LackedCache{Method: storeMethod + "Delete"}) }
func (syncedStore) List() []any      { panic(LackedCache{Method: storeMethod + "List"}) }
func (syncedStore) ListKeys() []string {
	panic(LackedCache{Method: storeMethod + "ListKeys"})
}
func (syncedStore) Get(any) (any, bool, error) { panic(LackedCache{Method: storeMethod + "Get"}) }
func (syncedStore) GetByKey(string) (any, bool, error) {
	panic(LackedCache{Method: storeMethod + "GetByKey"})
}
func (syncedStore) Replace([]any, string) error {
	panic(LackedCache{Method: storeMethod + "Replace"})
}
func (syncedStore) Resync() error   { panic(LackedCache{Method: storeMethod + "Resync"}) }
func (syncedStore) Bookmark(string) { panic(LackedCache{Method: storeMethod + "Bookmark"}) }

// Lacked reports p, a panic recovered in a reconcile whose stack is
// stack, as the LackedCache it is: one a method of the manager's cache
// panicked with, or a nil dereference in a method of its informers or
// stores that client-go's newer versions add (promoted from the nil
// interface they embed, a frame "recmgr.(*storeInformer).<Method>" at
// "<autogenerated>"), which is the explorer's lack, not the operator's
// panic.
func Lacked(p any, stack []byte) (LackedCache, bool) {
	if lc, ok := AsLackedCache(p); ok {
		return lc, true
	}
	if _, ok := p.(goruntime.Error); !ok {
		return LackedCache{}, false
	}
	for _, t := range []struct{ typ, prefix string }{{"storeInformer", informerMethod}, {"syncedStore", storeMethod}} {
		for _, frame := range []string{"recmgr." + t.typ + ".", "recmgr.(*" + t.typ + ")."} {
			if m := promotedMethod(stack, frame); m != "" {
				return LackedCache{Method: t.prefix + m}, true
			}
		}
	}
	return LackedCache{}, false
}
