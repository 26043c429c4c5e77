// Package migratecapi: cluster-api's patch helper. Reconcile makes a
// helper that copies the object it has just read, and patches the status
// in a defer with a named error return; the helper's Patch takes a
// client.Object. The helper's body moves onto the StatusPatcher of
// patchers.For, its callers unchanged, when its base is only the write's,
// its Patch writes nothing else and every caller hands it the object it
// read; else the write stays, naming the line.
package migratecapi

import (
	"context"
	"errors"
	"fmt"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	helper := newPatchHelper(w, r.Client)
	defer func() {
		if err := helper.Patch(ctx, w); err != nil {
			reterr = errors.Join(reterr, err)
		}
	}()
	w.Status.Ready = true
	return nil
}

// patchHelper patches an object's status against the copy taken when it
// was made.
type patchHelper struct {
	c    client.Client
	base client.Object
}

func newPatchHelper(obj client.Object, c client.Client) *patchHelper { // want newPatchHelper:"statusOnly\\[0\\]"
	return &patchHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *patchHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	if err := h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return fmt.Errorf("patching the status of %s: %w", client.ObjectKeyFromObject(obj), err)
	}
	return nil
}

// keyedHelper's client is also read by its Get method: the client stays
// beside the patcher.
type keyedHelper struct {
	base client.Object
	c    client.Client
}

func newKeyedHelper(c client.Client, obj client.Object) *keyedHelper { // want newKeyedHelper:"statusOnly\\[1\\]"
	return &keyedHelper{
		base: obj.DeepCopyObject().(client.Object),
		c:    c,
	}
}

func (h *keyedHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (h *keyedHelper) Get(ctx context.Context, obj client.Object) error { // want Get:"statusOnly\\[1\\] field:base\\(\\) readsWhy\\[1\\]"
	return h.c.Get(ctx, client.ObjectKeyFromObject(obj), obj)
}

func (r *Reconciler) keyed(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newKeyedHelper(r.Client, w)
	defer func() {
		if err := h.Patch(ctx, w); err != nil {
			reterr = err
		}
	}()
	w.Status.Size++
	return nil
}

// baseHelper's base is also read by Changed: the patcher is no base to
// read, and it stays.
type baseHelper struct {
	c    client.Client
	base client.Object
}

func newBaseHelper(obj client.Object, c client.Client) *baseHelper { // want newBaseHelper:"statusOnly\\[0\\]"
	return &baseHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *baseHelper) Changed(obj client.Object) bool { // want Changed:"statusOnly\\[0\\] field:base\\(GetResourceVersion\\)"
	return h.base.GetResourceVersion() != obj.GetResourceVersion()
}

func (h *baseHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: baseHelper's base field base is used at line 105 besides the write: the patcher that would replace the copy is no base to read\)$`
}

func (r *Reconciler) based(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newBaseHelper(w, r.Client)
	w.Status.Ready = true
	if !h.Changed(w) {
		return nil
	}
	return h.Patch(ctx, w)
}

// specHelper's Patch writes the object too, not only its status: it
// stays.
type specHelper struct {
	c    client.Client
	base client.Object
}

func newSpecHelper(obj client.Object, c client.Client) *specHelper { // want newSpecHelper:"statusOnly\\[0\\]"
	return &specHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *specHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	if err := h.c.Update(ctx, obj); err != nil {
		return err
	}
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: specHelper\.Patch also uses h\.c at line 137: the patcher writes the status only, and Patch may write more \(its spec or metadata\)\)$`
}

func (r *Reconciler) spec(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newSpecHelper(w, r.Client)
	w.Spec.Size = 3
	w.Status.Ready = true
	return h.Patch(ctx, w)
}

// otherHelper's Patch is given another object than the one it was made
// from: it stays.
type otherHelper struct {
	c    client.Client
	base client.Object
}

func newOtherHelper(obj client.Object, c client.Client) *otherHelper { // want newOtherHelper:"statusOnly\\[0\\]"
	return &otherHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *otherHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: h\.Patch at line 177 is given copied, not w, which h was made from: the patcher writes the object it is made with\)$`
}

func (r *Reconciler) other(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newOtherHelper(w, r.Client)
	copied := w.DeepCopy()
	copied.Status.Ready = true
	return h.Patch(ctx, copied)
}

// unreadHelper is made from an object no Get read: it stays.
type unreadHelper struct {
	c    client.Client
	base client.Object
}

func newUnreadHelper(obj client.Object, c client.Client) *unreadHelper { // want newUnreadHelper:"statusOnly\\[0\\]"
	return &unreadHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *unreadHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: w is not read with Get before the constructor's call at line 195 in its function: the patcher's base would not be the object the server stored\)$`
}

func (r *Reconciler) unread(ctx context.Context, w *v1.Widget) error {
	h := newUnreadHelper(w, r.Client)
	w.Status.Ready = true
	return h.Patch(ctx, w)
}

// Helper is exported, as cluster-api's util/patch.Helper: its uses in
// other packages are not seen, and it stays.
type Helper struct {
	c    client.Client
	base client.Object
}

func NewHelper(obj client.Object, c client.Client) *Helper { // want NewHelper:"statusOnly\\[0\\]" NewHelper:`^readsOnly\[0\]$`
	return &Helper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *Helper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: Helper is exported, and its uses in other packages are not seen: make each caller's patcher with patchers\.For \(or New<Kind>StatusPatcher\) after its Get and call its Flush\(ctx\) in place of Patch\)$`
}

func (r *Reconciler) exported(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := NewHelper(w, r.Client)
	w.Status.Ready = true
	return h.Patch(ctx, w)
}

// errHelper's constructor returns an error too (cluster-api's
// patch.NewHelper does): it returns For's, where its callers check it.
type errHelper struct {
	c    client.Client
	base client.Object
}

func newErrHelper(obj client.Object, c client.Client) (*errHelper, error) { // want newErrHelper:"statusOnly\\[0\\]"
	if obj == nil {
		return nil, errors.New("no object")
	}
	return &errHelper{
		c:    c,
		base: obj.DeepCopyObject().(client.Object),
	}, nil
}

func (h *errHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *Reconciler) withErr(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h, err := newErrHelper(w, r.Client)
	if err != nil {
		return err
	}
	defer func() {
		reterr = errors.Join(reterr, h.Patch(ctx, w))
	}()
	w.Status.Size = 2
	return nil
}

// twoHelper is made twice from one object, the first alive (deferred)
// when the second writes: two patchers of one object, the later Flush
// would conflict on every reconcile. It stays.
type twoHelper struct {
	c    client.Client
	base client.Object
}

func newTwoHelper(obj client.Object, c client.Client) *twoHelper { // want newTwoHelper:"statusOnly\\[0\\]"
	return &twoHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *twoHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: newTwoHelper is made from w at line 283 and another patch helper from it at line 285, in one function: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) twice(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	outer := newTwoHelper(w, r.Client)
	defer func() { reterr = errors.Join(reterr, outer.Patch(ctx, w)) }()
	inner := newTwoHelper(w, r.Client)
	w.Status.Size = 1
	if err := inner.Patch(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// updHelper's caller writes the object's status itself while the helper
// is alive: neither moves onto a patcher of its own. Both stay.
type updHelper struct {
	c    client.Client
	base client.Object
}

func newUpdHelper(obj client.Object, c client.Client) *updHelper { // want newUpdHelper:"statusOnly\\[0\\]"
	return &updHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *updHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its caller writes w's status itself at line 317 while the helper made from it at line 314 is alive: two patchers of one object, the later Flush would conflict on every reconcile \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

func (r *Reconciler) updated(ctx context.Context, key client.ObjectKey) (reterr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	h := newUpdHelper(w, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, w)) }()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: a patch helper is made from w at line 314, before this write in its function: the write's own patcher would be a second patcher of w, its Flush conflicting with the helper's patch \(write both through one patcher by hand\)\)$`
		return err
	}
	w.Status.Ready = true
	return nil
}
