// Package migratehandloop: a conflict loop written by hand, a for whose
// body reads the object again with Get, decides, writes its status, and
// leaves the loop unless the write's error is a conflict (issue 80, u's
// project C: DatabaseReconciler.Reconcile). The loop becomes the Retry
// of the patcher the object's life already has, the object staying that
// patcher's; with none, a Fetch...Into of the object and its Retry. A
// loop doing anything else per attempt keeps, naming the line.
package migratehandloop

import (
	"context"
	"reflect"
	"sync/atomic"
	"time"

	v1 "example.com/op/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var shards atomic.Int64

type Reconciler struct {
	client.Client
}

// Project C's shape: the writes before the loop share a patcher made at
// the first read, and the counted loop becomes its Retry; w stays its
// object, read after the loop.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	original := w.DeepCopy()
	w.Status.Ready = true
	if !reflect.DeepEqual(original.Status, w.Status) {
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
	}

	var err error
	for i := 0; i < 3; i++ {
		if err = r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		if w.Status.Size == 0 {
			w.Status.Size = int(shards.Add(1))
		}
		err = r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
		if !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{Requeue: w.Status.Size == 0}, nil
}

// The write before the loop skipped by a guard of its own: the status
// changed and left unwritten there, which the loop's Get dropped, Retry
// would refuse, and the loop stays.
func (r *Reconciler) unguarded(ctx context.Context, key client.ObjectKey, ready bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	if ready {
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		err = r.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in a conflict loop written by hand at line 78, and the status write of w at line 73 is not on every path to it: a status changed there and not written, which the loop's Get dropped, Retry would refuse\)$`
		if !apierrors.IsConflict(err) {
			break
		}
	}
	return err
}

// No patcher before the loop: an unbounded loop leaving on success and
// returning any other error; the object is fetched into itself.
func unbounded(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	for {
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = w.Status.Size > 0
		err := c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
		if err == nil {
			break
		}
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return nil
}

// A conflict continues the loop; any other outcome leaves it.
func continued(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	for i := 0; i < 5; i++ {
		if err = c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size++
		err = c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
		if apierrors.IsConflict(err) {
			continue
		}
		break
	}
	return err
}

// The attempt counter read in the decision: the loop stays.
func counter(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size = i
		err = c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in a conflict loop written by hand at line 133, whose attempt counter i is read at line 137 \(make the Get a FetchWidgetStatusPatcher before the loop, and the loop its Retry, by hand\)\)$`
		if !apierrors.IsConflict(err) {
			break
		}
	}
	return err
}

// A sleep between attempts the code relies on: the loop stays.
func sleeps(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		err = c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in a conflict loop written by hand at line 150, which also does time\.Sleep at line 159 on each attempt \(make the Get a FetchWidgetStatusPatcher before the loop, and the loop its Retry, by hand\)\)$`
		if !apierrors.IsConflict(err) {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// Another write on each attempt: the loop stays.
func another(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Labels = map[string]string{"seen": "yes"}
		if err = c.Update(ctx, w); err != nil {
			return err
		}
		w.Status.Ready = true
		err = c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in a conflict loop written by hand at line 168, which also does c\.Update at line 173 on each attempt \(make the Get a FetchWidgetStatusPatcher before the loop, and the loop its Retry, by hand\)\)$`
		if !apierrors.IsConflict(err) {
			break
		}
	}
	return err
}

// A break on another condition: the loop stays.
func early(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Get(ctx, key, w); err != nil {
			return err
		}
		if w.Status.Ready {
			break
		}
		w.Status.Ready = true
		err = c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in a conflict loop written by hand at line 189, which also leaves it at line 194 on each attempt \(make the Get a FetchWidgetStatusPatcher before the loop, and the loop its Retry, by hand\)\)$`
		if !apierrors.IsConflict(err) {
			break
		}
	}
	return err
}
