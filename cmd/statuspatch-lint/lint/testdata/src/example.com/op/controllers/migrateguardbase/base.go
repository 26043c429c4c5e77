// Package migrateguardbase: an early "nothing to do" return before a
// merge patch's base (helper U4's F3, s107), and a count kept in a loop
// over a List before the guard (U4's E1, project E's ReconcileSummary).
// At faa5cbbb the first became a plain Flush with the guard and the
// decision before it and nothing said of them; the same code with
// Update moved into Retry. The second stayed before a Flush "the call at
// line N takes a context": the List stays outside Retry's function, and
// the count (var n; n++ in the loop) is what the graph did not find.
package migrateguardbase

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type R struct{ client.Client }

func next(n int) int { return n + 1 }

// (a) The guard, the base, the decision, the patch: into Retry, the
// base gone, the guard mutate's return nil.
func (r *R) guardOnly(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Size != 0 {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.Size = next(w.Spec.Size)
	return ctrl.Result{}, r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// (b) A List and its count before the guard: the List stays before the
// Retry, the count and the guard move.
func (r *R) listThenGuard(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return ctrl.Result{}, fmt.Errorf("list in %s: %w", w.Namespace, err)
	}
	n := len(list.Items)
	if w.Status.Ready && w.Status.Size == n {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	w.Status.Size = n
	return ctrl.Result{}, r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// (c) A count kept in a loop over the List (var n; n++), the guard, the
// write's error wrapped: into Retry, the List before it.
func (r *R) counted(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return ctrl.Result{}, fmt.Errorf("list widgets of %s: %w", w.Name, err)
	}
	var n int
	for _, o := range list.Items {
		if o.Spec.Size == w.Spec.Size && o.Status.Ready {
			n++
		}
	}
	if w.Status.Size == n {
		return ctrl.Result{}, nil
	}
	w.Status.Size = n
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, fmt.Errorf("count %s: %w", w.Name, err)
	}
	return ctrl.Result{}, nil
}

// (d) The guard before the base asks for a requeue the success path
// does not: it stays, and the Flush's note names the return.
func (r *R) requeues(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Size != 0 {
		return ctrl.Result{Requeue: true}, nil
	}
	base := w.DeepCopy()
	w.Status.Size = next(w.Spec.Size)
	return ctrl.Result{}, r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// (e) The status read before the List: the List, a call to the cluster
// a retry would repeat, stays between it and the decision, and the note
// names the read and the call.
func (r *R) readBeforeList(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	had := w.Status.Size
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = had + len(list.Items)
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

// (f) The count kept in the loop and carried after the write, where an
// attempt's n++ would stay: it stays, and the note names n, not the List.
func (r *R) countedCarried(ctx context.Context, req ctrl.Request) (int, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return 0, client.IgnoreNotFound(err)
	}
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return 0, err
	}
	n := 0
	for range list.Items {
		n++
	}
	if w.Status.Size == n {
		return n, nil
	}
	w.Status.Size = n
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return 0, err
	}
	return n, nil
}

// (g) The count used on the write's error path, where Retry's function
// would leave its last attempt's value: it stays, and the note names
// that, not the List before it.
func (r *R) countInError(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return ctrl.Result{}, err
	}
	n := len(list.Items)
	if w.Status.Size == n {
		return ctrl.Result{}, nil
	}
	w.Status.Size = n
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, fmt.Errorf("count %d: %w", n, err)
	}
	return ctrl.Result{}, nil
}
