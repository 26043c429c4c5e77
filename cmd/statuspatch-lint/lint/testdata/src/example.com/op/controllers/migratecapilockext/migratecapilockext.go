// Package migratecapilockext: a kept patch helper whose base is taken
// before a function of another package, given a client and the object,
// writes it (a finalizer's Update). At s95f's b494324 -fix locked the
// helper's deferred patch, which then sent the resourceVersion the
// Update moved, a conflict on every reconcile that adds the finalizer,
// and -ci after it reported nothing. It now stays unlocked, naming the
// call; beside it a function of another package given no client, which
// cannot write, leaves the lock on, as does one given a client that only
// reads the object, by its package's analysis (OtherReader).
package migratecapilockext

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"example.com/op/finutil"
	"example.com/op/readhelper"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

type widgetScope struct {
	Widget *v1.Widget
}

type scopeHelper struct {
	c    client.Client
	base client.Object
}

func newScopeHelper(obj client.Object, c client.Client) *scopeHelper { // want newScopeHelper:"statusOnly\\[0\\]"
	return &scopeHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *scopeHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 50 passes s\.Widget, not a variable; and its caller's finutil\.Ensure at line 53, of another package, is given a client and the object and may write it while h, made at line 50, holds its base for h\.Patch at line 51 \(write both through one patcher by hand\)\) \(no fix: a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change\)$`
}

// The finalizer is written by another package's function while h holds
// its base: no lock.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) (reterr error) {
	s := &widgetScope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	h := newScopeHelper(s.Widget, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, s.Widget)) }()
	s.Widget.Status.Ready = true
	return finutil.Ensure(ctx, r.Client, s.Widget, "example.com/finalizer")
}

type readHelper struct {
	c    client.Client
	base client.Object
}

func newReadHelper(obj client.Object, c client.Client) *readHelper { // want newReadHelper:"statusOnly\\[0\\]"
	return &readHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *readHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 75 passes s\.Widget, not a variable\)$`
}

// Another package's function given no client: the lock stays.
func (r *Reconciler) Read(ctx context.Context, key client.ObjectKey) (reterr error) {
	s := &widgetScope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	h := newReadHelper(s.Widget, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, s.Widget)) }()
	s.Widget.Status.Ready = finutil.Has(s.Widget, "example.com/finalizer")
	return nil
}

type otherHelper struct {
	c    client.Client
	base client.Object
}

func newOtherHelper(obj client.Object, c client.Client) *otherHelper { // want newOtherHelper:"statusOnly\\[0\\]"
	return &otherHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
}

func (h *otherHelper) Patch(ctx context.Context, obj client.Object) error { // want Patch:"why field:base\\?"
	return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base)) // want `\(not moved to the patcher: its constructor's call at line 103 passes s\.Widget, not a variable\)$`
}

// Another package's function given a client and the object that only
// reads it (cluster-api's patch.NewHelper, reduced): at cb49be1 the lock
// was left off ("is given a client and the object and may write it");
// its package's analysis saw it only read the object, and the lock stays.
func (r *Reconciler) OtherReader(ctx context.Context, key client.ObjectKey) (reterr error) {
	s := &widgetScope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	h := newOtherHelper(s.Widget, r.Client)
	defer func() { reterr = errors.Join(reterr, h.Patch(ctx, s.Widget)) }()
	if _, err := readhelper.NewHelper(s.Widget, r.Client); err != nil {
		return err
	}
	s.Widget.Status.Ready = true
	return nil
}
