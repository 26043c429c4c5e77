// Package advapplymerge: a blind merge patch after a server-side apply of
// the same object, its base taken after the apply. The apply stays
// (beside: a merge write after it); at 2009c0f the merge patch moved onto
// a patcher made at the read, before the apply. The apply moves the
// resourceVersion whenever it changes anything, and w, another object
// than the one applied, still holds the read's: the Flush sent that
// resourceVersion and conflicted, where the blind patch was stored. A
// lock at the handwritten base would conflict the same way, so the write
// stays, blind, naming the apply (appliedBetween, and the lint's
// appliedBefore), as staleLockBase does for a Patch or Update of the
// object itself. So does an apply by a helper (by name, a method value, a
// literal), and a copy's write before the base; a re-read after it moves.
package advapplymerge

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) applyThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `not moved to the patcher`
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied at line 33, after its read at line 30 and before this write: .*\(no fix: the object is applied at line 33, before this patch:`
}

// Read again after the apply: the patcher made at the re-read holds the
// apply's resourceVersion.
func (r *R) applyThenReread(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `not moved to the patcher: w.s status is also written at line 56`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A spec patch of a copy between the read and the base: the object keeps
// the read's resourceVersion.
func (r *R) copyPatched(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Spec.Size = 3
	if err := r.Patch(ctx, c, client.MergeFrom(w)); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(no fix: a copy of the object is written at line 68, before this patch: that write moves the resourceVersion on the server, not in the object that base copies`
}

// A helper applying the object before the base.
func (r *R) applyHelperThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.applySize(ctx, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied by r\.applySize, given w at line 82 \(its apply at line 91\), after its read at line 79 and before this write: .*\(no fix: the object is applied at line 82 by applySize, at advapplymerge\.go:91, before this patch`
}

func (r *R) applySize(ctx context.Context, w *v1.Widget) error { // want applySize:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me")) // want `not moved to the patcher: the apply does not force ownership`
}

// A method value of the applying helper called between the read and the
// base: at cb49be1 -fix moved the write (the syntax followed only a call
// naming the package's function) and the lint locked it (its model did
// not follow a method value): each sent the read's resourceVersion after
// the apply had moved it.
func (r *R) applyMethodValueThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	apply := r.applyReady
	if err := apply(ctx, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied by apply, given w at line 105 \(its apply at line 134\), after its read at line 101 .*\(no fix: the object is applied at line 105 by applyReady, at advapplymerge\.go:134, before this patch`
}

// A literal capturing w, made before the read and called after it: at
// cb49be1 -fix moved the write (the syntax looked for an apply written
// after the read) and the lint locked it (its model did not follow a
// literal).
func (r *R) applyLiteralThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	applyIt := func() error {
		return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `not moved to the patcher: no Widget fetched with Get before the apply configuration is built`
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := applyIt(); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied by applyIt, capturing w, at line 125 \(its apply at line 120\), after its read at line 122 .*\(no fix: the object is applied at line 125 by the literal at line 119, at advapplymerge\.go:120, before this patch`
}

func (r *R) applyReady(ctx context.Context, w *v1.Widget) error { // want applyReady:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(1)), client.FieldOwner("me")) // want `not moved to the patcher`
}

// The configuration named by the request's key, the object read by it:
// at 21e2a44 -fix moved the merge patch (the model matched a
// configuration built from w's fields only; the syntax had matched the
// key).
func (r *R) applyByKeyThenMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(req.Name, req.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `not moved to the patcher: w.s status is also written at line 151`
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied at line 146, after its read at line 143 and before this write: .*\(no fix: the object is applied at line 146, before this patch:`
}

// The write in a literal, the object read and applied outside it: at
// cb49be1 -fix moved it onto a patcher made at the base (the read it
// looked for was in the literal); kept, the lint locked it.
func (r *R) applyThenMergeInLiteral(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `not moved to the patcher: w.s status is also written at line 168`
		return err
	}
	write := func() error {
		base := w.DeepCopy()
		w.Status.Ready = true
		return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied at line 162, after its read at line 159 and before this write: .*\(no fix: the object is applied at line 162, before this patch:`
	}
	return write()
}
