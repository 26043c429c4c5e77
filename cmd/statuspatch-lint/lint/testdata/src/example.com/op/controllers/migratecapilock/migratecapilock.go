// Package migratecapilock: cluster-api-style patch helpers kept for a
// reason of their own (an object that is no variable, an interface, a
// constructor call assigned to nothing) whose base is taken before
// another write of their object on the way to their Patch. A lock on
// such a patch sends the base's resourceVersion, which that write moved:
// it would conflict on every reconcile where both change. Each gets no
// lock, naming the other write; a helper whose Patch runs before any
// other write of its object keeps the lock.
package migratecapilock

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

type widgetScope struct {
	Widget *v1.Widget
}

// scopeHelper is made from a scope's field, its Patch deferred; the
// scope's write runs first, in a function given the scope.
type scopeHelper struct {
	c    client.Client
	base client.Object
}

func newScopeHelper(obj client.Object, c client.Client) *scopeHelper { // want newScopeHelper:"statusOnly\\[0\\]"
	return &scopeHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *scopeHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 47 passes s\.Widget, not a variable; and r\.markScoped at line 49 writes at line 55 \(r\.Status\(\)\.Update\) while h, made at line 47, holds its base for h\.Patch at line 48 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) scoped(ctx context.Context, key client.ObjectKey) (reterr error) {
	s := &widgetScope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	h := newScopeHelper(s.Widget, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, s.Widget)) }()
	return r.markScoped(ctx, s)
}

func (r *Reconciler) markScoped(ctx context.Context, s *widgetScope) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: `
}

// finalHelper is made from the object as a client.Object; the object's
// finalizer is written with Update before the deferred Patch.
type finalHelper struct {
	c    client.Client
	base client.Object
}

func newFinalHelper(obj client.Object, c client.Client) *finalHelper { // want newFinalHelper:"statusOnly\\[0\\]"
	return &finalHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *finalHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 79 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen; and its caller's r\.Update at line 82 writes while h, made at line 79, holds its base for h\.Patch at line 80 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) finalized(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newFinalHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	w.Finalizers = append(w.Finalizers, "example.com/final")
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// earlyHelper is made from a scope's field and patches before the
// scope's write: its base is the object's last write, and it keeps the
// lock.
type earlyHelper struct {
	c    client.Client
	base client.Object
}

func newEarlyHelper(obj client.Object, c client.Client) *earlyHelper { // want newEarlyHelper:"statusOnly\\[0\\]"
	return &earlyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *earlyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 110 passes s\.Widget, not a variable\)$`
}

func (r *Reconciler) early(ctx context.Context, key client.ObjectKey) error {
	s := &widgetScope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	h := newEarlyHelper(s.Widget, r.Client)
	s.Widget.Status.Size = 1
	if err := h.Patch(ctx, s.Widget); err != nil {
		return err
	}
	return r.markScoped(ctx, s)
}

// inlineHelper is made in the deferred call itself: its base is taken
// after the writes before it, and it keeps the lock.
type inlineHelper struct {
	c    client.Client
	base client.Object
}

func newInlineHelper(obj client.Object, c client.Client) *inlineHelper { // want newInlineHelper:"statusOnly\\[0\\]"
	return &inlineHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *inlineHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 142 is not assigned to a variable of its own \(helper := newInlineHelper\(\.\.\.\)\)\)$`
}

func (r *Reconciler) inline(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	defer func() { reterr = errors.Join(reterr, newInlineHelper(w, r.Client).Patch(ctx, w)) }()
	w.Status.Size = 2
	return nil
}
