// Package migratecapibeside: status writes moved by routes other than a
// write in place (a conflict loop, a helper given the object, an apply)
// beside a cluster-api-style patch helper made from the same object, in
// the writer's function or in a function it calls before the write. Each
// would get a patcher of its own beside the helper's: two patchers of one
// object, the later Flush conflicting on every reconcile where the blind
// patches both succeeded. Each stays, naming the helper's line, and the
// helper stays too, naming the write's.
package migratecapibeside

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// loopHelper patches an object's status against the copy taken when it was
// made; looped writes in a conflict loop after it.
type loopHelper struct {
	c    client.Client
	base client.Object
}

func newLoopHelper(obj client.Object, c client.Client) *loopHelper { // want newLoopHelper:"statusOnly\\[0\\]"
	return &loopHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *loopHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its caller writes w's status itself at line 55 while the helper made from it at line 45 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) looped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newLoopHelper(w, r.Client)
	w.Status.Ready = true
	if err := h.Patch(ctx, w); err != nil {
		return err
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size++
		return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a patch helper is made from w at line 45, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
	})
	return err
}

// handHelper patches an object's status against the copy taken when it was
// made; handed hands the object to a helper writing it
// while this one, deferred, is alive.
type handHelper struct {
	c    client.Client
	base client.Object
}

func newHandHelper(obj client.Object, c client.Client) *handHelper { // want newHandHelper:"statusOnly\\[0\\]"
	return &handHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *handHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its caller hands w to r\.markReady at line 83, which writes its status at line 88, while the helper made from it at line 81 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) handed(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newHandHelper(w, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, w)) }()
	return r.markReady(ctx, w)
}

func (r *Reconciler) markReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of markReady: its caller at line 83 makes a patch helper from w at line 81 before the call: the patcher it would make for this write would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
}

// applyHelper patches an object's status against the copy taken when it was
// made; applied applies the object's status after it.
type applyHelper struct {
	c    client.Client
	base client.Object
}

func newApplyHelper(obj client.Object, c client.Client) *applyHelper { // want newApplyHelper:"statusOnly\\[0\\]"
	return &applyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *applyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its caller writes w's status itself at line 117 while the helper made from it at line 111 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) applied(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newApplyHelper(w, r.Client)
	w.Status.Ready = true
	if err := h.Patch(ctx, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, client.FieldOwner("widget-controller"), client.ForceOwnership) // want `\(not moved to the patcher: a patch helper is made from w at line 111, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

// sizeHelper patches an object's status against the copy taken when it was
// made; called writes the object after a function it
// calls has made one and patched.
type sizeHelper struct {
	c    client.Client
	base client.Object
}

func newSizeHelper(obj client.Object, c client.Client) *sizeHelper { // want newSizeHelper:"statusOnly\\[0\\]"
	return &sizeHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *sizeHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: w is not read with Get before the constructor's call at line 149 in its function: the patcher's base would not be the object the server stored\)$`
}

func (r *Reconciler) called(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.ensureSized(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a patch helper is made from w at line 149 in ensureSized, called at line 141, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
}

func (r *Reconciler) ensureSized(ctx context.Context, w *v1.Widget) error {
	h := newSizeHelper(w, r.Client)
	w.Status.Size = w.Spec.Size
	return h.Patch(ctx, w)
}

// madeHelper patches an object's status against the copy taken when it was
// made; made writes the object while one a function it
// calls made from it is alive (deferred).
type madeHelper struct {
	c    client.Client
	base client.Object
}

func newMadeHelper(obj client.Object, c client.Client) *madeHelper { // want newMadeHelper:"statusOnly\\[0\\]"
	return &madeHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *madeHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 182 is not assigned to a variable of its own \(helper := newMadeHelper\(\.\.\.\)\); and its caller's r\.Status\(\)\.Update at line 178 writes while h, made at line 175, holds its base for h\.Patch at line 176 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) made(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := r.helperFor(w)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, w)) }()
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a patch helper is made from w at line 182 in helperFor, called at line 175, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
}

func (r *Reconciler) helperFor(w *v1.Widget) *madeHelper { // want helperFor:"statusOnly\\[0\\]"
	return newMadeHelper(w, r.Client)
}

// ownedHelper patches with a field owner: it stays (For takes no write
// option), and owned's write after it stays beside it.
type ownedHelper struct {
	c    client.Client
	base client.Object
}

func newOwnedHelper(obj client.Object, c client.Client) *ownedHelper { // want newOwnedHelper:"statusOnly\\[0\\]"
	return &ownedHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *ownedHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base), client.FieldOwner("widget-owned")) // want `\(not moved to the patcher: its caller writes w's status itself at line 211 while the helper made from it at line 205 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) owned(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newOwnedHelper(w, r.Client)
	w.Status.Size = 1
	if err := h.Patch(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a patch helper is made from w at line 205, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
}

// soloHelper patches with a field owner and nothing else writes its
// object: it stays for the option, naming it.
type soloHelper struct {
	c    client.Client
	base client.Object
}

func newSoloHelper(obj client.Object, c client.Client) *soloHelper { // want newSoloHelper:"statusOnly\\[0\\]"
	return &soloHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *soloHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base), client.FieldOwner("widget-solo")) // want `\(not moved to the patcher: soloHelper\.Patch's status patch has the option client\.FieldOwner\("widget-solo"\): -fix moves a patch helper whose write passes only client\.MergeFrom\(h\.base\) \(by hand: give patchers\.For the option, a field owner as patcher\.WithFieldOwner\)\)$`
}

func (r *Reconciler) solo(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newSoloHelper(w, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, w)) }()
	w.Status.Ready = true
	return nil
}
