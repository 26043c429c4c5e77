// Package advdeferhunt: adversary s97c on the deferred writes before a
// re-read (migratedeferheld.go, lifedefer*.go).
package advdeferhunt

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
	APIReader client.Reader
}

// A deferred literal's write before the re-read in a two-result return.
func (r *R) returnGetPair(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 29 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 35 \(a Get in a return or another expression`
	}()
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 29 \(its status write\) flushes, in a function literal, .* at line 35 \(a Get in a return`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Get(ctx, req.NamespacedName, w)
}

func (r *R) finish(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of finish: its caller at line 115`
}

func (r *R) refetch(ctx context.Context, req ctrl.Request, w *v1.Widget) error { // want refetch:`^statusOnly\[2\]$`
	return r.Get(ctx, req.NamespacedName, w)
}

func (r *R) settle(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of settle: its caller at line 58`
}

// A deferred helper call before a re-read made by a helper.
func (r *R) helperReread(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer r.settle(ctx, w)
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 58 \(r\.settle writes its status at line 49\) takes the patcher made before it when its defer statement runs, before the re-read of w by r\.refetch at line 63, which reads it with Get at line 44`
		return err
	}
	return r.refetch(ctx, req, w)
}

// The tutorial: a named error, a deferred status write, the first
// condition written, then the re-fetch.
func (r *R) tutorial(ctx context.Context, req ctrl.Request) (_ ctrl.Result, reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if reterr != nil {
			w.Status.Ready = false
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			reterr = errors.Join(reterr, err)
		}
	}()
	if len(w.Status.Conditions) == 0 {
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	w.Status.Ready = true
	return ctrl.Result{}, nil
}

// A deferred Update of the value before a re-read by the API reader.
func (r *R) apiReader(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 100 \(its status write\) takes the patcher made before it .* Get at line 101`
	if err := r.APIReader.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// The re-read assigned to a declared error.
func (r *R) assignedErr(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return err
	}
	defer r.finish(ctx, w)
	w.Status.Ready = true
	if err = r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 115 \(r\.finish writes its status at line 40\) .* Get at line 120`
		return err
	}
	err = r.Get(ctx, req.NamespacedName, w)
	return err
}

// The defer inside a branch, the re-read after it.
func (r *R) deferInBranch(ctx context.Context, req ctrl.Request, late bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if late {
		defer r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 131 \(its status write\) .* Get at line 133`
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// A deferred literal calling a method value taken before the re-read.
func (r *R) methodValue(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	done := func() error { return r.Status().Update(ctx, w) } // want `not moved to the patcher: w is not read with Get in the function literal at line 146`
	defer done()
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// A re-read inside an expression between two writes, no defer.
func (r *R) strayGet(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: w is read again at line 165, between the read its patcher is made after \(line 158\) and the write at line 169, by a Get in an expression`
		return err
	}
	if apierrors.IsNotFound(r.Get(ctx, req.NamespacedName, w)) {
		return nil
	}
	w.Status.Size = 3
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is read again at line 165, between the read its patcher is made after \(line 158\) and the write at line 169, by a Get in an expression`
}

// A deferred literal's write before a re-read in a closure called later.
func (r *R) closureReread(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 180 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 183 \(a Get in a return or another expression`
	}()
	refresh := func() error {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return err
		}
		return nil
	}
	return refresh()
}

// Twin: no re-read after the deferred literal; a closure reads another
// object.
func (r *R) closureOther(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	other := &v1.Widget{}
	peek := func() error { return r.Get(ctx, req.NamespacedName, other) }
	if err := peek(); err != nil {
		return err
	}
	w.Status.Ready = other.Status.Ready
	return nil
}

// Reviewer RC: a Get in an early return's expression between two writes
// runs on a path that returns, never before the second write.
func (r *R) strayReturn(ctx context.Context, req ctrl.Request, refresh bool) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if refresh {
		return ctrl.Result{Requeue: true}, r.Get(ctx, req.NamespacedName, w)
	}
	w.Status.Size = 3
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Reviewer RC: the closure re-reading is made before the deferred literal
// and called after it: the re-read runs after the defer statement.
func (r *R) closureMadeBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	refresh := func() error { return r.Get(ctx, req.NamespacedName, w) }
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 239 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 236`
	}()
	return refresh()
}

// Reviewer RC: a Get in an expression before the deferred literal, in a
// loop around it: the next turn's re-read runs after the defer statement.
func (r *R) loopRereadBefore(ctx context.Context, reqs []ctrl.Request) error {
	w := &v1.Widget{}
	for _, req := range reqs {
		if apierrors.IsNotFound(r.Get(ctx, req.NamespacedName, w)) {
			continue
		}
		defer func() {
			w.Status.Size = 2
			_ = r.Status().Update(ctx, w) // want `not moved to the patcher: w is read with Get at line 249 as an argument of apierrors.IsNotFound, not in a statement of its own: `
		}()
	}
	return nil
}

// Reviewer RC: the closure re-reads before the deferred literal is
// registered, after the read its patcher would be made at.
func (r *R) closureCalledBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	peek := func() error { return r.Get(ctx, req.NamespacedName, w) }
	if err := peek(); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: w is read again at line 267, between the read its patcher is made after \(line 264\) and the write at line 273, by a Get in an expression`
	}()
	return nil
}

// Twin: a Get on an early return's path before the deferred literal: the
// literal is registered only where it did not run.
func (r *R) strayReturnDefer(ctx context.Context, req ctrl.Request, refresh bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if refresh {
		return r.Get(ctx, req.NamespacedName, w)
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	return nil
}

// Reviewer C (s97): a deferred literal's write before a re-read made by
// a helper: the reason names the helper's call and its Get, not a Get
// at the call's line.
func (r *R) literalHelperReread(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 305 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w by r\.refetch at line 307, which reads it with Get at line 44 \(a helper's read is no statement a Fetch replaces: it stays\)`
	}()
	return r.refetch(ctx, req, w)
}
