// Package advdeferplaced: a deferred status write whose literal changes
// the object (a Ready condition from the named error), and a decision
// from the status in the body on some paths (issue 80 item 2, T's
// project B's Ship). The decision becomes the patcher's Retry at its
// place on its path (an early return's path does not run it), a value
// handed out made once, its error returned by the deferred Retry's
// mutate, where the handwritten write's error went; the literal's
// changes become the mutate of the deferred write's Retry, so a stale
// cached base (the early return's path reads nothing fresh) is read
// again, not refused. Where that is not exact, the write stays,
// naming the line and the fact.
package advdeferplaced

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

var tokens atomic.Int64

type R struct {
	client.Client
}

// Ship: the literal sets Ready from retErr and the generation; a sunk
// widget returns early; the size is handed out from the status. Moved.
func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	defer func() {
		cond := metav1.Condition{Type: "Ready", Status: "True", Reason: "Reconciled", ObservedGeneration: w.Generation}
		if retErr != nil {
			cond.Status, cond.Reason = "False", retErr.Error()
		}
		meta.SetStatusCondition(&w.Status.Conditions, cond)
		if perr := r.Status().Patch(ctx, w, client.MergeFrom(base)); perr != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			retErr = errors.Join(retErr, fmt.Errorf("patching status of widget %s: %w", req.NamespacedName, perr))
		}
	}()
	if w.Spec.PodName != nil && *w.Spec.PodName == "sunk" {
		return ctrl.Result{}, fmt.Errorf("widget %s is sunk", w.Name)
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	w.Status.Ready = true
	return ctrl.Result{}, nil
}

// No early return: the literal still changes the object, so the
// decision is a Retry of its own before the deferred one.
func (r *R) last(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// The decision reads the condition the defer sets, and the literal reads
// the size the body decides: the order is the handwritten one (the body
// before the defer), and on a conflict the deferred Retry reads the
// decision its Retry stored. Moved.
func (r *R) crossed(ctx context.Context, key client.ObjectKey, skip bool) (res ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		cond := metav1.Condition{Type: "Sized", Status: "True", Reason: fmt.Sprint(w.Status.Size)}
		meta.SetStatusCondition(&w.Status.Conditions, cond)
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			retErr = errors.Join(retErr, err)
		}
	}()
	if skip {
		return ctrl.Result{Requeue: true}, nil
	}
	if meta.FindStatusCondition(w.Status.Conditions, "Sized") == nil {
		w.Status.Size = len(w.Spec.Roles)
	}
	return ctrl.Result{Requeue: skip}, nil
}

// A recover() before the literal's first use of the object stays in the
// literal, where it stops the panic. Moved.
func (r *R) recovered(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		if rec := recover(); rec != nil {
			retErr = fmt.Errorf("panic: %v", rec)
		}
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return nil
	}
	if !w.Status.Ready {
		w.Status.Size++
	}
	return nil
}

// Bare returns: the decision's error goes into the named result. Moved.
func (r *R) bare(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if retErr = r.Get(ctx, key, w); retErr != nil {
		return
	}
	defer func() {
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return
}

// recover() after the literal's first use of the object: in Retry's
// function it would stop no panic. Kept.
func (r *R) recoveredLate(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = true
		if recover() != nil {
			w.Status.Ready = false
		}
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: its status is decided from w's status read at line 165, before the deferred write: .*; the deferred literal calls recover\(\) at line 157, which in Retry's function would stop no panic; make the patcher after the read`
	}()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// The literal writes only when retErr is set: the decision's Retry at
// its place would write on the paths where the handwritten code writes
// nothing. Kept.
func (r *R) guarded(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		if retErr == nil {
			return
		}
		w.Status.Ready = false
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `the deferred literal may return or jump at line 180, before its write: the decision's own Retry would write on a path where the deferred write does not; make the patcher after the read`
	}()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// The literal sets the named error before its write: Retry's function
// would join it again on each attempt. Kept.
func (r *R) setsErr(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
		if !w.Status.Ready {
			retErr = errors.Join(retErr, errors.New("not ready"))
		}
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `the deferred literal's changes cannot move into Retry: it sets retErr at line 205, declared outside it: Retry's function may run more than once`
	}()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// Another deferred literal changes the object. Kept.
func (r *R) twoDefers(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `w is changed or read again at line 228, outside the decision; make the patcher after the read`
	}()
	defer func() { w.Status.Size = 0 }()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// allocate creates a widget: a call to the cluster, which each attempt
// would repeat.
func (r *R) allocate(ctx context.Context, w *v1.Widget) int { // want allocate:`statusOnly\[1\]`
	_ = r.Create(ctx, &v1.Widget{})
	return len(w.Spec.Roles)
}

// A decision calling the cluster given ctx. Kept, naming the call.
func (r *R) ctxCall(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `; the decision is not the function's last statements before its return: the call r.allocate at line 259 takes a context, and allocate calls r.Create at line 241, a write to the cluster, which a retry would repeat; make the patcher after the read`
	}()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = r.allocate(ctx, w)
	}
	return nil
}

// A goto over the final return's label. Kept (the patcher -fix
// declares may be jumped over).
func (r *R) gotoDone(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: the function has a goto at line 276, which may jump over a patcher -fix declares\)$`
	}()
	if skip {
		goto done
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
done:
	return nil
}

// No error result, the body's end the decision's: the deferred write's
// error is dropped, so is the decision's. Moved.
func (r *R) noError(ctx context.Context, key client.ObjectKey, skip bool) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return
	}
	defer func() {
		w.Status.Ready = true
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
}

// The status set in the literal, no write: nothing to report.
func (r *R) unwritten(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Ready = retErr == nil
	}()
	return nil
}

// Reconcile's move, written by hand: nothing to report.
func (r *R) migrated(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	wPatcher := patchers.NewWidgetStatusPatcher(r, w)
	defer func() {
		if perr := wPatcher.Retry(ctx, func(w *v1.Widget) error {
			cond := metav1.Condition{Type: "Ready", Status: "True", Reason: "Reconciled", ObservedGeneration: w.Generation}
			if retErr != nil {
				cond.Status, cond.Reason = "False", retErr.Error()
			}
			meta.SetStatusCondition(&w.Status.Conditions, cond)
			return nil
		}); perr != nil {
			retErr = errors.Join(retErr, perr)
		}
	}()
	if w.Spec.PodName != nil && *w.Spec.PodName == "sunk" {
		return ctrl.Result{}, fmt.Errorf("widget %s is sunk", w.Name)
	}
	if err := wPatcher.Retry(ctx, func(w *v1.Widget) error {
		if w.Status.Size == 0 {
			w.Status.Size = len(w.Spec.Roles)
		}
		w.Status.Ready = true
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *R) done() (ctrl.Result, error) { return ctrl.Result{}, nil }

// The final return gives both results from one call: it stays, the
// decision's error goes to the deferred write's. Moved.
func (r *R) oneCall(ctx context.Context, key client.ObjectKey, skip bool) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		w.Status.Ready = true
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return ctrl.Result{}, nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return r.done()
}

// The deferred write's NotFound dropped by hand: the decision's Retry
// error goes into the deferred write's error, so the same filter drops
// it (R4-d1's Reconcile). Moved.
func (r *R) notFound(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	defer func() {
		w.Status.Ready = retErr == nil
		if perr := r.Status().Patch(ctx, w, client.MergeFrom(base)); perr != nil && !apierrors.IsNotFound(perr) { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			retErr = errors.Join(retErr, fmt.Errorf("patching status of widget %s: %w", req.NamespacedName, perr))
		}
	}()
	if skip := w.Spec.PodName == nil; skip {
		return ctrl.Result{}, nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return ctrl.Result{}, nil
}

// The deferred write's error only logged: so is the decision's. Moved.
func (r *R) logged(ctx context.Context, key client.ObjectKey) (result ctrl.Result, retErr error) {
	log := logf.FromContext(ctx)
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Ready = true
		if perr := r.Status().Update(ctx, w); perr != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			log.Error(perr, "status not written")
		}
	}()
	if w.Spec.PodName == nil {
		return ctrl.Result{}, nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return ctrl.Result{}, nil
}

// No named error, the deferred write's error dropped: so is the
// decision's; the final return stays. Moved.
func (r *R) dropped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Ready = true
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Spec.PodName == nil {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// The function goes on after the decision (R4-d3's Reconcile): the
// final return's Delete runs whatever the decision's write answers, as
// it ran before the handwritten write. Moved.
func (r *R) goesOn(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Ready = true
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Spec.PodName == nil {
		return ctrl.Result{}, nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return ctrl.Result{}, client.IgnoreNotFound(r.Delete(ctx, &v1.Widget{}))
}

// The early path reads the widget again into another variable and
// writes that (R4-d4's other): it gets a patcher of its own beside
// wPatcher; each sends under its own base's resourceVersion, so the
// deferred Retry after it gets a 409, reads again and sends Ready on
// what the early path stored. Both moved.
func (r *R) again(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Ready = true
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Spec.PodName != nil {
		again := &v1.Widget{}
		if err := r.Get(ctx, key, again); err != nil {
			return err
		}
		again.Status.Size = 0
		return r.Status().Update(ctx, again) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}
