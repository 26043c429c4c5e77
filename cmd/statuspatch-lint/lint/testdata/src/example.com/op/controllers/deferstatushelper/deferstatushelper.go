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

// local: the helper is of this package, which -fix does not judge
// before assigning the patcher again: the writes stay, naming it.
func (r *R) local(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			markLocal(w)
			_ = r.Status().Update(ctx, w) // want `Get at line 122: w is given to markLocal at line 114, a function of this package, which -fix may give the patcher: it judges only another package's, by its summary, and a patcher of the re-read's own`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `w is given to markLocal at line 114, a function of this package`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `w is given to markLocal at line 114, a function of this package`
}
