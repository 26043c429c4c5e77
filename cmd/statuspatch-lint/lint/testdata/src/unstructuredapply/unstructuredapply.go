// Package unstructuredapply reproduces the storage version migration of
// cluster-api v1.13 (controllers/crdmigrator): a status apply of an
// unstructured object through client.ApplyConfigurationFromUnstructured,
// whose resourceVersion is set on the unstructured object.
package unstructuredapply

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// crd_migrator.go imports runtime too: the kind of the configuration is
// named after it. It would be "an object of unknown kind" otherwise.
var _ runtime.ApplyConfiguration

type Reconciler struct {
	Client client.Client
}

// crd_migrator.go: the resourceVersion of the object read is copied, so a
// concurrent write makes the apply conflict.
func (r *Reconciler) migrate(ctx context.Context, objs []client.Object, useStatus bool) error {
	for _, obj := range objs {
		u := &unstructured.Unstructured{}
		u.SetNamespace(obj.GetNamespace())
		u.SetName(obj.GetName())
		u.SetResourceVersion(obj.GetResourceVersion())
		var err error
		if useStatus {
			err = r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("crdmigrator")) // want `^optimistic: Status\(\).Apply of runtime.ApplyConfiguration: apply configuration sets resourceVersion$`
		} else {
			err = r.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("crdmigrator"))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Through a variable, and with the resourceVersion set after the
// configuration is made: it wraps the same object.
func (r *Reconciler) viaVariable(ctx context.Context, rv string) error {
	u := &unstructured.Unstructured{}
	ac := client.ApplyConfigurationFromUnstructured(u)
	u.SetResourceVersion(rv)
	return r.Client.Status().Apply(ctx, ac) // want `^optimistic: Status\(\).Apply of runtime.ApplyConfiguration: apply configuration sets resourceVersion$`
}

// A fresh object without resourceVersion: blind.
func (r *Reconciler) fresh(ctx context.Context) error {
	u := &unstructured.Unstructured{}
	u.SetName("a")
	return r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)) // want `^blind: Status\(\).Apply of runtime.ApplyConfiguration: server-side apply of a new unstructured object without resourceVersion$`
}

// A fresh object read with Get before the apply: not blind (at
// d4979aa7 it was called "a new unstructured object without
// resourceVersion"); the Get gives it the one it sends.
func (r *Reconciler) readFirst(ctx context.Context, key client.ObjectKey) error {
	u := &unstructured.Unstructured{}
	if err := r.Client.Get(ctx, key, u); err != nil {
		return err
	}
	return r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)) // want `^unresolved: Status\(\).Apply of runtime.ApplyConfiguration: client.ApplyConfigurationFromUnstructured: object's resourceVersion unknown$`
}

// Cleared resourceVersion: blind.
func (r *Reconciler) cleared(ctx context.Context, u *unstructured.Unstructured) error {
	u.SetResourceVersion("")
	return r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)) // want `^blind: Status\(\).Apply of runtime.ApplyConfiguration: resourceVersion cleared before apply$`
}

// An object from elsewhere (read from the API server, or not): its
// resourceVersion is unknown.
func (r *Reconciler) given(ctx context.Context, u *unstructured.Unstructured) error {
	return r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)) // want `^unresolved: Status\(\).Apply of runtime.ApplyConfiguration: client.ApplyConfigurationFromUnstructured: object's resourceVersion unknown$`
}
