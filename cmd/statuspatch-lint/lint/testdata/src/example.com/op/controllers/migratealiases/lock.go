package migratealiases

import (
	"context"
	"errors"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

// Two objects of one kind beside patch helpers kept for their interface
// argument: the parent's finalizer is written while both helpers hold
// their bases. The child's helper keeps the lock (its object is not
// written on the way: the parent is another object, read by another
// key); the parent's gets none, naming the write.
type childHelper struct {
	c    client.Client
	base client.Object
}

func newChildHelper(obj client.Object, c client.Client) *childHelper { // want newChildHelper:"statusOnly\\[0\\]"
	return &childHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *childHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 53 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen\)$`
}

type parentHelper struct {
	c    client.Client
	base client.Object
}

func newParentHelper(obj client.Object, c client.Client) *parentHelper { // want newParentHelper:"statusOnly\\[0\\]"
	return &parentHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *parentHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 55 passes pobj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen; and its caller's r\.Update at line 58 writes while ph, made at line 55, holds its base for ph\.Patch at line 56 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) twoObjects(ctx context.Context, key, parentKey client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	parent := &v1.Widget{}
	if err := r.Get(ctx, parentKey, parent); err != nil {
		return err
	}
	var obj client.Object = w
	h := newChildHelper(obj, r.Client)
	var pobj client.Object = parent
	ph := newParentHelper(pobj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj), ph.Patch(ctx, pobj)) }()
	parent.Finalizers = append(parent.Finalizers, "example.com/child")
	if err := r.Update(ctx, parent); err != nil {
		return err
	}
	w.Status.Ready = true
	parent.Status.Ready = true
	return nil
}

// A Patch called through an interface: the object's finalizer is written
// while the helper holds its base, and the helper gets no lock.
type statusPatcher interface {
	Patch(ctx context.Context, obj client.Object) error
}

type ifaceHelper struct {
	c    client.Client
	base client.Object
}

func newIfaceHelper(obj client.Object, c client.Client) *ifaceHelper { // want newIfaceHelper:"statusOnly\\[0\\]"
	return &ifaceHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *ifaceHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 91 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen; and its caller's r\.Update at line 93 writes while p, made at line 91, holds its base for p\.Patch at line 97 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) throughIface(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	var p statusPatcher = newIfaceHelper(obj, r.Client)
	w.Finalizers = append(w.Finalizers, "example.com/final")
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return p.Patch(ctx, obj)
}

// A closure defined before the helper, calling its Patch after the
// object's write: the helper gets no lock.
type closureHelper struct {
	c    client.Client
	base client.Object
}

func newClosureHelper(obj client.Object, c client.Client) *closureHelper { // want newClosureHelper:"statusOnly\\[0\\]"
	return &closureHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *closureHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 122 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen; and its caller's r\.Update at line 124 writes while h, a parameter of the function literal at line 121, made before its call, holds its base for h\.Patch at line 121 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) closureFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	flush := func(h *closureHelper) error { return h.Patch(ctx, obj) }
	h := newClosureHelper(obj, r.Client)
	w.Finalizers = append(w.Finalizers, "example.com/final")
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return flush(h)
}

// A second variable read by the same key is the same object on the
// server: its write takes the lock off, naming it.
type sameKeyHelper struct {
	c    client.Client
	base client.Object
}

func newSameKeyHelper(obj client.Object, c client.Client) *sameKeyHelper { // want newSameKeyHelper:"statusOnly\\[0\\]"
	return &sameKeyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *sameKeyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 152 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen; and its caller's r\.Update at line 160 writes while h, made at line 152, holds its base for h\.Patch at line 153 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) sameKey(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newSameKeyHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	w.Status.Ready = true
	fresh := &v1.Widget{}
	if err := r.Get(ctx, key, fresh); err != nil {
		return err
	}
	fresh.Finalizers = append(fresh.Finalizers, "example.com/final")
	return r.Update(ctx, fresh)
}

// The same key under another name (k2 := key), or spelt field by field:
// the same object on the server, whose Update takes the lock off; by the
// key's text alone it was taken for another object, and locked: a 409 on
// every reconcile where the blind patch was stored.
type renamedKeyHelper struct {
	c    client.Client
	base client.Object
}

func newRenamedKeyHelper(obj client.Object, c client.Client) *renamedKeyHelper { // want newRenamedKeyHelper:"statusOnly\\[0\\]"
	return &renamedKeyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *renamedKeyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `its caller's r\.Update at line 208 writes while h, made at line 199, holds its base for h\.Patch at line 200 \(write both through one patcher by hand\)\) \(no fix: `
}

type speltKeyHelper struct {
	c    client.Client
	base client.Object
}

func newSpeltKeyHelper(obj client.Object, c client.Client) *speltKeyHelper { // want newSpeltKeyHelper:"statusOnly\\[0\\]"
	return &speltKeyHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *speltKeyHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `its caller's r\.Update at line 225 writes while h, made at line 217, holds its base for h\.Patch at line 218 \(write both through one patcher by hand\)\) \(no fix: `
}

func (r *Reconciler) renamedKey(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newRenamedKeyHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	w.Status.Ready = true
	k2 := key
	fresh := &v1.Widget{}
	if err := r.Get(ctx, k2, fresh); err != nil {
		return err
	}
	fresh.Finalizers = append(fresh.Finalizers, "example.com/final")
	return r.Update(ctx, fresh)
}

func (r *Reconciler) speltKey(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newSpeltKeyHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	w.Status.Ready = true
	fresh := &v1.Widget{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: key.Namespace, Name: key.Name}, fresh); err != nil {
		return err
	}
	fresh.Finalizers = append(fresh.Finalizers, "example.com/final")
	return r.Update(ctx, fresh)
}

// A helper nothing writes beside keeps its lock, though a function of
// the package handed a statusPatcher writes the object before that
// interface's Patch: every call of it hands a freshPatcher, never the
// helper.
type aloneHelper struct {
	c    client.Client
	base client.Object
}

func newAloneHelper(obj client.Object, c client.Client) *aloneHelper { // want newAloneHelper:"statusOnly\\[0\\]"
	return &aloneHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *aloneHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 251 passes obj as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen\)$`
}

func (r *Reconciler) helperAlone(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	h := newAloneHelper(obj, r.Client)
	w.Status.Ready = true
	return h.Patch(ctx, obj)
}

type freshPatcher struct{ c client.Client }

func (f freshPatcher) Patch(ctx context.Context, obj client.Object) error { // want Patch:"statusOnly\\[1\\]"
	return f.c.Patch(ctx, obj, client.Merge)
}

func (r *Reconciler) flushVia(ctx context.Context, p statusPatcher, w *v1.Widget) error {
	w.Finalizers = append(w.Finalizers, "example.com/final")
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	return p.Patch(ctx, w)
}

func (r *Reconciler) useFresh(ctx context.Context, w *v1.Widget) error {
	return r.flushVia(ctx, freshPatcher{r.Client}, w)
}

// A struct embedding a helper, held in an interface: its Patch is the
// helper's, and the object's Update before it takes the lock off.
type embeddedHelper struct {
	c    client.Client
	base client.Object
}

func newEmbeddedHelper(obj client.Object, c client.Client) *embeddedHelper { // want newEmbeddedHelper:"statusOnly\\[0\\]"
	return &embeddedHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *embeddedHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `and its caller's r\.Update at line 299 writes while p, made at line 297, holds its base for p\.Patch at line 303 \(write both through one patcher by hand\)\) \(no fix: `
}

type wrappedHelper struct{ *embeddedHelper }

func (r *Reconciler) throughWrapper(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var obj client.Object = w
	var p statusPatcher = wrappedHelper{newEmbeddedHelper(obj, r.Client)}
	w.Finalizers = append(w.Finalizers, "example.com/final")
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return p.Patch(ctx, obj)
}

// One function of the package given the other object, then the helper's:
// the second call writes the helper's object while it holds its base, and
// takes the lock off (it was scanned once, for the first call only).
type twiceHelper struct {
	c    client.Client
	base client.Object
}

func newTwiceHelper(obj client.Object, c client.Client) *twiceHelper { // want newTwiceHelper:"statusOnly\\[0\\]"
	return &twiceHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *twiceHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `and r\.addFinal at line 342 writes at line 324 \(r\.Update\) while h, made at line 337, holds its base for h\.Patch at line 338 \(write both through one patcher by hand\)\) \(no fix: `
}

func (r *Reconciler) addFinal(ctx context.Context, o *v1.Widget) error {
	o.Finalizers = append(o.Finalizers, "example.com/final")
	return r.Update(ctx, o)
}

func (r *Reconciler) calledTwice(ctx context.Context, key, parentKey client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	parent := &v1.Widget{}
	if err := r.Get(ctx, parentKey, parent); err != nil {
		return err
	}
	var obj client.Object = w
	h := newTwiceHelper(obj, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, obj)) }()
	if err := r.addFinal(ctx, parent); err != nil {
		return err
	}
	if err := r.addFinal(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}
