// Package event is a stub of controller-runtime's: the events an informer
// hands to predicates and handlers, holding the cache's objects.
package event

import "sigs.k8s.io/controller-runtime/pkg/client"

type CreateEvent struct{ Object client.Object }

type UpdateEvent struct {
	ObjectOld client.Object
	ObjectNew client.Object
}

type DeleteEvent struct{ Object client.Object }

type GenericEvent struct{ Object client.Object }

// TypedUpdateEvent is an update of objects of one type.
type TypedUpdateEvent[T any] struct {
	ObjectOld T
	ObjectNew T
}
