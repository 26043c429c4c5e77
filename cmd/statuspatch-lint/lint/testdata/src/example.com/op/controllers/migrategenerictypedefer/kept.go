package migrategenerictypedefer

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// deciding's hook is a method that reads the status it sets: the write
// stays, naming the hook's value and the method.
type deciding[T client.Object] struct {
	C    client.Client
	New  func() T
	Hook func(ctx context.Context, obj T) error
}

func (r *deciding[T]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if uerr := r.C.Status().Update(ctx, obj); uerr != nil && err == nil { // want `\(not moved to the patcher: its hook Hook, called at line 29, is set at line 34 to \(&allocator\{\}\)\.once, declared at line 37, which reads w's status: it decides from the status, and the hook is not moved into the patcher's Retry \(a Flush or a lock of it is refused as a conflict whenever that read is behind\)\)`
			err = uerr
		}
	}()
	return ctrl.Result{}, r.Hook(ctx, obj)
}

type allocator struct{ client.Client }

var _ = &deciding[*v1.Widget]{New: func() *v1.Widget { return &v1.Widget{} }, Hook: (&allocator{}).once}

// once allocates a size once.
func (a *allocator) once(ctx context.Context, w *v1.Widget) error { // want once:"statusOnly\\[1\\]"
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	return nil
}

// unseen's hook is set to a variable: which function it holds is not seen.
type unseen[T client.Object] struct {
	C    client.Client
	Hook func(T)
}

func (r *unseen[T]) Reconcile(ctx context.Context, req ctrl.Request, obj T) error { // want Reconcile:"why readsWhy\\[2\\]"
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	defer func() { _ = r.C.Status().Update(ctx, obj) }() // want `\(not moved to the patcher: its hook Hook, called at line 55, is set at line 59 to anyHook, not a function named or written there: which function it holds is not seen\)`
	r.Hook(obj)
	return nil
}

var _ = &unseen[*v1.Widget]{Hook: anyHook}

var anyHook = func(w *v1.Widget) {}

// early registers its deferred write before the read.
type early[T client.Object] struct {
	C   client.Client
	New func() T
}

func (r *early[T]) Reconcile(ctx context.Context, req ctrl.Request) (err error) {
	obj := r.New()
	defer func() { err = r.C.Status().Update(ctx, obj) }() // want `\(not moved to the patcher: its deferred write is registered at line 71, before the read at line 72 the patcher would be made after\)`
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	return nil
}

var _ = &early[*v1.Widget]{}

// again reads the object a second time before the write.
type again[T client.Object] struct {
	C   client.Client
	New func() T
}

func (r *again[T]) Reconcile(ctx context.Context, req ctrl.Request) error {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	defer func() { _ = r.C.Status().Update(ctx, obj) }() // want `\(not moved to the patcher: obj is read again with Get at line 92, after the read at line 88 the patcher would be made after: the write sent it as re-read, and a Flush of that patcher would conflict\)`
	return r.C.Get(ctx, req.NamespacedName, obj)
}

var _ = &again[*v1.Widget]{}

// handing's hook is assigned a literal that hands the object on: what
// the callee does with the status is not followed.
type handing[T client.Object] struct {
	C    client.Client
	New  func() T
	Hook func(T)
}

func (r *handing[T]) Reconcile(ctx context.Context, req ctrl.Request) error {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	r.Hook(obj)
	return r.C.Status().Update(ctx, obj) // want `\(not moved to the patcher: its hook Hook, called at line 110, is set at line 116 to a function that hands w to mark at line 116: whether that reads its status is not followed\)`
}

func newHanding() *handing[*v1.Widget] {
	h := &handing[*v1.Widget]{New: func() *v1.Widget { return &v1.Widget{} }}
	h.Hook = func(w *v1.Widget) { mark(w) }
	return h
}

func mark(w *v1.Widget) { w.Status.Ready = true } // want mark:"statusOnly\\[0\\]"
