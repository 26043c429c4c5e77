package migrategenericbase

import (
	"context"
	"regexp"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var validName = regexp.MustCompile(`^[a-z]+$`)

var lastID int

func nextID() int {
	lastID++
	return lastID
}

// A caller's literal calls a compiled regexp's method, given its
// object's name: a reader, run again by each attempt as it changes
// nothing, so the helper's mutate becomes the patcher's Retry as it is
// (at adaadbc the helper stayed, saying Retry would call it again).
func namedStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) named(ctx context.Context, w *v1.Widget) error {
	return namedStatus(ctx, r.Client, w, func(w *v1.Widget) {
		if !w.Status.Ready && validName.MatchString(w.Name) {
			w.Status.Ready = true
		}
	})
}

// A caller's literal calls a package function that hands out a number:
// made once before the call, as a method of a package's counter is.
func numberStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) numbered(ctx context.Context, w *v1.Widget) error {
	return numberStatus(ctx, r.Client, w, func(w *v1.Widget) {
		if w.Status.Size == 0 {
			w.Status.Size = nextID()
		}
	})
}
