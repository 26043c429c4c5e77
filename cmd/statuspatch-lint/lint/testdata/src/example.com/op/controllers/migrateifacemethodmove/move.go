package migrateifacemethodmove

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Conditioned is a kind of this module whose status carries conditions.
type Conditioned interface {
	client.Object
	GetGeneration() int64
}

// manager writes the status every reconciler of this package sets (issue
// 80's status Manager): its methods take the package's StatusPatcher.
type manager struct {
	Client client.Client
}

// markProgressing writes at once with a merge patch of a base it takes
// itself: the base goes, the object is the patcher's.
func (m *manager) markProgressing(ctx context.Context, obj Conditioned, reason string) error {
	base := obj.DeepCopyObject().(client.Object)
	println(obj.GetName(), reason)
	if err := m.Client.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return fmt.Errorf("mark %s progressing: %w", obj.GetName(), err)
	}
	return nil
}

// markDegraded writes with an Update, on a value receiver.
func (m manager) markDegraded(ctx context.Context, obj Conditioned, cause error) error {
	if err := m.Client.Status().Update(ctx, obj); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return fmt.Errorf("mark %s degraded (%v): %w", obj.GetName(), cause, err)
	}
	return nil
}

// markQuiet does not use its object other than for the write.
func (m *manager) markQuiet(ctx context.Context, obj Conditioned) error {
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	sm := &manager{Client: r.Client}
	if err := sm.markProgressing(ctx, w, "Working"); err != nil {
		return err
	}
	w.Status.Ready = false
	return nil
}

func (r *WidgetReconciler) fail(ctx context.Context, key client.ObjectKey, cause error) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 0
	return manager{Client: r.Client}.markDegraded(ctx, w, cause)
}

func (r *WidgetReconciler) quiet(ctx context.Context, key client.ObjectKey, sm *manager) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	return sm.markQuiet(ctx, w)
}

// stuckMarker is an interface this package calls markStuck through.
type stuckMarker interface {
	markStuck(ctx context.Context, obj Conditioned) error
}

// markStuck is called through stuckMarker too: it stays, naming the
// call, as the move would leave *manager no stuckMarker.
func (m *manager) markStuck(ctx context.Context, obj Conditioned) error {
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: markStuck is a method of manager \(line 89\) over Conditioned, and markStuck is called through the interface stuckMarker at line 101, which would no longer be implemented; by hand: have it take p patchers\.StatusPatcher in place of obj \(obj := p\.Object\(\)\.\(Conditioned\) where it needs the interface\) and call p\.Flush\(ctx\) in place of this write, each caller passing its kind's patcher's StatusPatcher\(\), or patchers\.For\(c, obj\)\)$`
}

func (r *WidgetReconciler) stuck(ctx context.Context, key client.ObjectKey, sm stuckMarker) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := (&manager{Client: r.Client}).markStuck(ctx, w); err != nil {
		return err
	}
	return sm.markStuck(ctx, w)
}

// markHooked's caller is handed its object (a shared loop's hook, project
// D's statusHook): no patcher is made for it, so the method stays.
func (m *manager) markHooked(ctx context.Context, obj Conditioned) error {
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: .*\(not moved to the patcher: markHooked is a method of manager \(line 106\) over Conditioned, and its caller at line 111 passes w, not read with Get before it in this function; by hand: .*patchers\.For\(c, obj\)\)$`
}

func (r *WidgetReconciler) hook(ctx context.Context, w *v1.Widget) error {
	return (&manager{Client: r.Client}).markHooked(ctx, w)
}

func newManager(c client.Client) *manager { return &manager{Client: c} }

// markBuilt's caller builds its receiver with a call: the client it
// writes through is not seen there, so the method stays.
func (m *manager) markBuilt(ctx context.Context, obj Conditioned) error {
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: .*\(not moved to the patcher: markBuilt is a method of manager \(line 118\) over Conditioned, and its caller at line 127 passes its receiver newManager\(r\.Client\), whose Client \(the client markBuilt writes through\) is not seen at the read: not a field of a parameter or the receiver of this function, nor one set from them in a literal; by hand: .*patchers\.For\(c, obj\)\)$`
}

func (r *WidgetReconciler) built(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return newManager(r.Client).markBuilt(ctx, w)
}

// markEarly's merge patch sent what it changed after its base; its caller
// changed the status before the call, which the patcher's Flush would
// send too: it stays.
func (m *manager) markEarly(ctx context.Context, obj Conditioned) error {
	base := obj.DeepCopyObject().(client.Object)
	println(obj.GetName())
	return m.Client.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: markEarly is a method of manager \(line 133\) over Conditioned, and its caller at line 145 passes w, which may have changed since its read or last stored status write on a path to the call: markEarly's merge patch of its own base at line 134 did not send that, the patcher's Flush would; by hand: .*patchers\.For\(c, obj\)\)$`
}

func (r *WidgetReconciler) early(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 3
	return (&manager{Client: r.Client}).markEarly(ctx, w)
}

// quieter declares markQuieter, which *manager satisfies: no call
// through it is seen here, but the move would leave *manager no quieter.
type quieter interface {
	markQuieter(ctx context.Context, obj Conditioned) error
}

var _ quieter = (*manager)(nil)

func (m *manager) markQuieter(ctx context.Context, obj Conditioned) error {
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: .*\(not moved to the patcher: markQuieter is a method of manager \(line 156\) over Conditioned, and its type satisfies quieter, which has markQuieter: calls through it are not seen, and it would no longer satisfy it; by hand: .*patchers\.For\(c, obj\)\)$`
}

func (r *WidgetReconciler) quieter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&manager{Client: r.Client}).markQuieter(ctx, w)
}
