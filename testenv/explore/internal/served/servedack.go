package served

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What the barrier at the start of a step (servedcache.go) waits for: the
// second cache holding what its watches were sent.

// ack is what the cache must hold of one object a watch was sent: rv, or
// nothing ("").
type ack struct {
	q  Request
	nn types.NamespacedName
	rv string
}

// taken reads the object through c, as the informer of the watch holds it.
func (a ack) taken(ctx context.Context, c cache.Cache, scheme *runtime.Scheme) (bool, error) {
	var obj client.Object
	switch a.q.Rep {
	case MetadataRep:
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(a.q.GVK)
		obj = m
	case UnstructuredRep:
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(a.q.GVK)
		obj = u
	default:
		o, err := scheme.New(a.q.GVK)
		if err != nil {
			return false, fmt.Errorf("explore: %s: %w", a.q.GVK, err)
		}
		obj = o.(client.Object)
	}
	err := c.Get(ctx, a.nn, obj)
	if apierrors.IsNotFound(err) {
		return a.rv == "", nil
	}
	if err != nil {
		return false, fmt.Errorf("explore: reading %s %s back from the cache Setup built: %w", a.q.GVK.Kind, a.nn, err)
	}
	return obj.GetResourceVersion() == a.rv, nil
}

// waitUntil waits for cond, checking it again and again (a condition, not
// a time: how long it takes changes nothing the schedule does).
func waitUntil(cond func() (bool, error), what string) error {
	deadline := time.Now().Add(barrierTimeout)
	pause := 20 * time.Microsecond
	for {
		ok, err := cond()
		if ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("explore: waited %s for %s", barrierTimeout, what)
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}
