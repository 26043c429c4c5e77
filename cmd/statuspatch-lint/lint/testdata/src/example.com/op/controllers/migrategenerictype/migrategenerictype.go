// Package migrategenerictype: a generic reconciler type whose method
// reads its object of the type's parameter, takes its base and writes
// its status (issue 80, U2's project D). The base becomes
// patchers.ForType of the object when every instantiation of the type in
// the package is of a kind with a generated patcher; else the write
// stays, naming the instantiation and its kind.
package migrategenerictype

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// rec is shared by two reconcilers of Widgets.
type rec[T client.Object] struct {
	C    client.Client
	New  func() T
	Hook func(T)
}

func (r *rec[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := obj.DeepCopyObject().(T)
	r.Hook(obj)
	return ctrl.Result{}, r.C.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^handwritten status write to an object of unknown kind`
}

func newSizeRec(c client.Client) *rec[*v1.Widget] {
	return &rec[*v1.Widget]{C: c, New: func() *v1.Widget { return &v1.Widget{} }, Hook: func(w *v1.Widget) { w.Status.Size = w.Spec.Size }}
}

func newReadyRec(c client.Client) *rec[*v1.Widget] {
	return &rec[*v1.Widget]{C: c, New: func() *v1.Widget { return &v1.Widget{} }, Hook: func(w *v1.Widget) { w.Status.Ready = true }}
}

// mixed is instantiated with a Gadget too, whose kind has no generated
// patcher: its write stays, naming that instantiation.
type mixed[T client.Object] struct {
	C    client.Client
	Hook func(T)
}

func (r *mixed[T]) write(ctx context.Context, obj T) error {
	base := obj.DeepCopyObject().(T)
	r.Hook(obj)
	return r.C.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: its instantiation mixed\[\*v1\.Gadget\] at line 57 is of Gadget, whose kind has no generated patcher\)$`
}

var (
	_ = &mixed[*v1.Widget]{}
	_ = &mixed[*v1.Gadget]{}
)

// wrapped is instantiated by another generic's type parameter: which
// kinds it holds is not seen.
type wrapped[T client.Object] struct{ C client.Client }

func (r *wrapped[T]) write(ctx context.Context, obj T) error {
	base := obj.DeepCopyObject().(T)
	return r.C.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: its instantiation at line 69 is by U, a type parameter of another generic: which kinds it holds is not seen\)$`
}

func wrap[U client.Object](c client.Client) *wrapped[U] {
	return &wrapped[U]{C: c}
}

var _ = &wrapped[*v1.Widget]{}

// Exported is exported: its instantiations in other packages are not seen.
type Exported[T client.Object] struct{ C client.Client }

func (r *Exported[T]) Write(ctx context.Context, obj T) error { // want Write:"why"
	base := obj.DeepCopyObject().(T)
	return r.C.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: Exported is exported, and only this package is analyzed: its instantiations in other packages are not seen \(statuspatch-lint -fix on the whole module moves it when every one is of a kind with a generated patcher\); by hand: make the base patchers\.ForType\(r\.C, obj\) and the write its Flush\)$`
}

var _ = &Exported[*v1.Widget]{}

// deciding's hook reads the status it sets: its write stays.
type deciding[T client.Object] struct {
	C    client.Client
	Hook func(T)
}

func (r *deciding[T]) write(ctx context.Context, obj T) error {
	base := obj.DeepCopyObject().(T)
	r.Hook(obj)
	return r.C.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: its hook Hook, called at line 93, is set at line 97 to a function that reads w's status: it decides from the status, and the hook is not moved into the patcher's Retry`
}

var _ = &deciding[*v1.Widget]{Hook: func(w *v1.Widget) {
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
}}

// plain has no instantiation: its write stays as before, of unknown kind.
type plain[T client.Object] struct{ C client.Client }

func (r *plain[T]) write(ctx context.Context, obj T) error {
	base := obj.DeepCopyObject().(T)
	return r.C.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: plain is not instantiated in its package\)$`
}
