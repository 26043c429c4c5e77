// Package deferstatushelper: a deferred failure write whose change is a
// helper of another package of the module, registered before the
// tutorial's re-Get (issue 80, U4's F5: F's Order). At faa5cbbb every
// write of the object stayed, saying -fix "cannot assign again at the
// re-read" the patcher the literal flushes, though with the change
// written in the literal itself (o.Status.Phase = "Failed") all three
// moved and the re-read assigned the patcher again: the helper's call
// was what blocked, and the reason did not name it. A helper whose body
// changes only the status (its ParamsFact) is given no patcher and
// holds nothing: the re-read assigns the patcher again as for the
// direct change. One that keeps the object blocks, and the reason says
// which call and what its body does.
package deferstatushelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/failmark"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// failed: F's Order, MarkFailed in the deferred literal.
func (r *R) failed(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			failmark.MarkFailed(w, retErr)
			_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// early: the literal returns early, as F's Order does, and the helper
// runs before the literal's write.
func (r *R) early(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		failmark.MarkFailed(w, retErr)
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = 7
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// remembered: the helper keeps the object; the writes stay, naming the
// call, its line, and what the helper's body does.
func (r *R) remembered(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			failmark.Remember(w)
			_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the function literal at line 85 writes w through the patcher of its read at line 82, which -fix cannot assign again at the re-read with Get at line 95: w is given to failmark\.Remember at line 87, where w is passed on or aliased at failmark\.go:27: it may change more than its status, and a patcher of the re-read's own would send the literal's change nowhere\)$`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the function literal at line 85 .* failmark\.Remember at line 87`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `not moved to the patcher: the function literal at line 85 .* failmark\.Remember at line 87`
}

// markLocal changes only the status, but is of this package.
func markLocal(w *v1.Widget) { w.Status.Ready = false } // want markLocal:`^statusOnly\[0\]$`

// local: the helper is of this package. At 867e71de the writes stayed,
// -fix judging only another package's helper ("a function of this
// package, which -fix may give the patcher"); its body, followed, changes
// only the status and writes nothing: the re-read assigns the patcher
// again, as for failmark.MarkFailed.
func (r *R) local(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			markLocal(w)
			_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// markSpec changes the spec too.
func markSpec(w *v1.Widget) {
	w.Spec.Size = 0
	w.Status.Ready = false
}

// localSpec: the helper of this package changes the spec: the writes stay,
// naming its call, its line and what its body does.
func (r *R) localSpec(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			markSpec(w)
			_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the function literal at line 145 writes w through the patcher of its read at line 142, which -fix cannot assign again at the re-read with Get at line 155: w is given to markSpec at line 147, a function of this package: w\.Spec is changed at line 134: the patcher writes only the status`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `w is given to markSpec at line 147, a function of this package: w\.Spec is changed at line 134`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `w is given to markSpec at line 147, a function of this package: w\.Spec is changed at line 134`
}

// setSize writes the status of the widget it is given.
func (r *R) setSize(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of setSize: its caller at line 182 also writes w's status at line 189, which does not move \(the function literal at line 176 .* w is given to r\.setSize at line 182, a function of this package whose status write at line 165 takes the patcher -fix gives it, made before the re-read`
}

// localWrite: the helper of this package writes the status, before the
// re-read: -fix gives it the patcher, made before the re-read, which the
// deferred literal flushes; the writes stay, naming the helper's write.
func (r *R) localWrite(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			_ = r.Status().Update(ctx, w) // want `not moved to the patcher: w is handed to r\.setSize at line 182, whose status write at line 165 stays`
		}
	}()
	if err := r.setSize(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `not moved to the patcher: the function literal at line 176 writes w through the patcher of its read at line 173, which -fix cannot assign again at the re-read with Get at line 185: w is given to r\.setSize at line 182, a function of this package whose status write at line 165 takes the patcher -fix gives it, made before the re-read, and a patcher of the re-read's own would send the literal's change nowhere\)$`
}
