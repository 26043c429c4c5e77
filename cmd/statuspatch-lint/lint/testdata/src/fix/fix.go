// Package fix: blind status patches get a fix that adds
// MergeFromWithOptimisticLock where the patch is built.
package fix

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// keepNulls is an option of the user's own.
type keepNulls struct{}

func (keepNulls) ApplyToMergeFrom(*client.MergeFromOptions) {} // want ApplyToMergeFrom:`^readOnly\[0\]$`

func (r *Reconciler) direct(ctx context.Context, w, base *v1.Widget) {
	_ = r.Status().Patch(ctx, w, client.MergeFrom(base))                                                  // want `^blind: Status\(\).Patch of Widget: client.MergeFrom without optimistic lock$`
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base))                                       // want `^blind: `
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, keepNulls{}))                          // want `^blind: `
	_ = r.Status().Patch(ctx, w, client.StrategicMergeFrom(base))                                         // want `^blind: `
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^optimistic: `
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(                                             // want `^blind: `
		base,
		keepNulls{},
	))
}

// A patch built in one function and sent in another is fixed where it
// is built.
func newPatch(w *v1.Widget) client.Patch { // want newPatch:`^patch\(0: blind: client.MergeFrom without optimistic lock\)$` newPatch:`^statusOnly\[0\]$`
	return client.MergeFrom(w.DeepCopyObject().(*v1.Widget))
}

func (r *Reconciler) Reconcile(ctx context.Context, w *v1.Widget) { // want Reconcile:"why"
	p := newPatch(w)
	w.Status.Ready = true
	_ = r.Status().Patch(ctx, w, p) // want `^blind: `
	r.send(ctx, w, client.MergeFrom(w.DeepCopyObject().(*v1.Widget)))
}

func (r *Reconciler) send(ctx context.Context, w *v1.Widget, p client.Patch) {
	_ = r.Status().Patch(ctx, w, p) // want `^blind: `
}

// The same patch also feeds the object's own Patch: the lock would make
// that write conflict too, so no fix.
func (r *Reconciler) shared(ctx context.Context, w *v1.Widget) {
	p := client.MergeFrom(w.DeepCopyObject().(*v1.Widget))
	_ = r.Patch(ctx, w, p)
	_ = r.Status().Patch(ctx, w, p) // want `^blind: .*client.MergeFrom without optimistic lock \(no fix: the same patch also feeds a write that is not to the status\)$`
}

// Options spread from a slice: no fix (the slice would have to change).
func (r *Reconciler) spread(ctx context.Context, w, base *v1.Widget) {
	opts := []client.MergeFromOption{keepNulls{}}
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, opts...)) // want `^blind: `
}

// Two paths, two constructors: one fix edits both.
func (r *Reconciler) twoPaths(ctx context.Context, w, base *v1.Widget, strategic bool) {
	p := client.MergeFrom(base)
	if strategic {
		p = client.StrategicMergeFrom(base)
	}
	_ = r.Status().Patch(ctx, w, p) // want `^blind: `
}

// karpenter's nodeclaim lifecycle: the base is taken before the object's
// own Patch, which moves the resourceVersion the lock would send: no
// lock, and the finding names that write.
func (r *Reconciler) staleBase(ctx context.Context, w *v1.Widget) { // want staleBase:`^statusOnly\[1\]$`
	stored := w.DeepCopyObject().(*v1.Widget)
	w.Status.Ready = true
	statusCopy := w.DeepCopyObject().(*v1.Widget)
	_ = r.Patch(ctx, w, client.MergeFrom(stored))
	_ = r.Status().Patch(ctx, statusCopy, client.MergeFrom(stored)) // want `^blind: .*client.MergeFrom without optimistic lock \(no fix: the base stored is taken at line 77, before the write of w at line 80, which moves the resourceVersion a lock would send: locked, this patch would conflict whenever both change; take the base after that write, or write the status first\)$`
}

// The base taken after that write, or the write on another path: the
// lock.
func (r *Reconciler) freshBase(ctx context.Context, w *v1.Widget, spec bool) {
	stored := w.DeepCopyObject().(*v1.Widget)
	if spec {
		_ = r.Patch(ctx, w, client.MergeFrom(stored))
		return
	}
	w.Status.Ready = true
	_ = r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^blind: .*client.MergeFrom without optimistic lock$`
	_ = r.Patch(ctx, w, client.MergeFrom(w.DeepCopyObject().(*v1.Widget)))
	stored = w.DeepCopyObject().(*v1.Widget)
	w.Status.Ready = false
	_ = r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^blind: .*client.MergeFrom without optimistic lock$`
}
