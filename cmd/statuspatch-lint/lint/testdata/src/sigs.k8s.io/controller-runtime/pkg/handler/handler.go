// Package handler is a stub of controller-runtime's: map functions the
// library calls with an informer's cached objects.
package handler

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// EventHandler enqueues requests for events.
type EventHandler interface{}

// MapFunc maps an object to the requests to enqueue.
type MapFunc func(context.Context, client.Object) []ctrl.Request

// EnqueueRequestsFromMapFunc enqueues what fn maps each event's object to.
func EnqueueRequestsFromMapFunc(fn MapFunc) EventHandler { return fn }

// TypedEnqueueRequestsFromMapFunc is EnqueueRequestsFromMapFunc for
// objects of one type.
func TypedEnqueueRequestsFromMapFunc[T any](fn func(context.Context, T) []ctrl.Request) EventHandler {
	return fn
}
