// Package migratelife: kubebuilder's tutorial composed on one object in
// one Reconcile: a status Update, the re-Get "to avoid the object has
// been modified", a MergeFrom patch of the same object, early returns
// that write, and a deferred write. -fix makes one patcher per object
// life at its read; every write is a Flush of it.
package migratelife

import (
	"context"
	"errors"
	"fmt"

	v1 "example.com/op/api/v1"
	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// The tutorial's Reconcile: an Update, the re-Get, then a MergeFrom
// patch of the same object. One patcher; the re-Get is its fresh read.
func (r *OrderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(order.Status.Conditions) == 0 {
		meta.SetStatusCondition(&order.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		// Re-fetch so that we avoid "the object has been modified".
		if err := r.Get(ctx, req.NamespacedName, order); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := order.DeepCopy()
	order.Status.Ready = true
	if err := r.Status().Patch(ctx, order, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Writes on exclusive paths: an early return that writes, then the final
// write. One patcher; each write is its Flush on its own path.
func (r *OrderReconciler) phases(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if order.Spec.Size < 0 {
		base := order.DeepCopy()
		order.Status.Ready = false
		if err := r.Status().Patch(ctx, order, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, errors.New("negative size")
	}
	order.Status.Size = order.Spec.Size
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A deferred write of the object the enclosing function read with Get:
// the closure flushes the enclosing function's patcher.
func (r *OrderReconciler) deferred(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err != nil {
			order.Status.Ready = false
		}
		if uerr := r.Status().Update(ctx, order); uerr != nil { // want `^handwritten status write to Widget`
			err = errors.Join(err, uerr)
		}
	}()
	order.Status.Size = order.Spec.Size
	return ctrl.Result{}, nil
}

// A status change after the first write and before the second's base,
// on one path only: the merge patch does not send it, a patcher of the
// first read would. Two lives: the second patcher is made at the base.
func (r *OrderReconciler) changedBetween(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if order.Spec.Size > 3 {
		order.Status.Size = 3
	}
	base := order.DeepCopy()
	order.Status.Ready = false
	return r.Status().Patch(ctx, order, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// A deferred write after which, in the function, the spec changes: the
// deferred write runs last, so it stays, and says where.
func (r *OrderReconciler) deferredSpec(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		_ = r.Status().Update(ctx, order) // want `\(not moved to the patcher: order.Spec is changed at line 124: the patcher writes only the status`
	}()
	order.Spec.Size = 3
	return nil
}

// The object handed down a chain of the package's functions that only
// read it, four deep and recursive: each body says so; the write moves.
func (r *OrderReconciler) deepRead(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Ready = level1(order)
	order.Status.Size = depth(order, 8)
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func level1(w *v1.Widget) bool { return level2(w) } // want level1:`^statusOnly\[0\]$`

func level2(w *v1.Widget) bool { return level3(w) } // want level2:`^statusOnly\[0\]$`

func level3(w *v1.Widget) bool { return level4(w) } // want level3:`^statusOnly\[0\]$`

func level4(w *v1.Widget) bool { return w.Spec.Size > 0 } // want level4:`^statusOnly\[0\]$`

func depth(w *v1.Widget, n int) int { // want depth:`^statusOnly\[0\]$`
	if n == 0 {
		return w.Spec.Size
	}
	return depth(w, n-1)
}

// A *string of the spec only logged and formatted: read; the write moves.
func (r *OrderReconciler) logged(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	logr.FromContextOrDiscard(ctx).Info("reconciling", "pod", order.Spec.PodName, "size", order.Spec.Size)
	order.Status.Ready = fmt.Sprint(order.Spec.PodName) != ""
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A logged value whose MarshalJSON has a pointer receiver (and changes
// it): the logger may call it; the write stays, and says where.
func (r *OrderReconciler) loggedHook(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	logr.FromContextOrDiscard(ctx).Info("reconciling", "hooked", order.Spec.Hooked)
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `\(not moved to the patcher: order.Spec may be changed at line 173: order.Spec.Hooked, a reference into the object, is passed to logr.Logger.Info \(Logger.Info is of github.com/go-logr/logr, which does not import metav1: -fix does not analyse its bodies\), and the patcher writes only the status`
}

// orderList is what a List fills: items the cache holds.
type orderList struct {
	Items []v1.Widget
}

func (l *orderList) DeepCopyObject() runtime.Object { return l }

// A parent writing its children's status in a loop over a List: each
// item is a cached copy, which a patcher made from it would Flush over
// this process's own earlier writes (refused as a conflict, and the next
// reconcile decides again). The decision moves into Retry's mutate: on a
// conflict Retry reads the child fresh and decides again.
func (r *OrderReconciler) children(ctx context.Context) error {
	var list orderList
	if err := r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		child := &list.Items[i]
		base := child.DeepCopy()
		child.Status.Ready = true
		if err := r.Status().Patch(ctx, child, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// The same over a slice of pointers.
func (r *OrderReconciler) childPointers(ctx context.Context, children []*v1.Widget) error {
	for _, child := range children {
		base := child.DeepCopy()
		child.Status.Ready = true
		if err := r.Status().Patch(ctx, child, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// A decision from the status read (the size counts the conditions read,
// only when not yet ready): it moves into Retry's mutate, which decides
// again from the object it re-reads on a conflict, instead of the 409
// ending the reconcile and the next one deciding again.
func (r *OrderReconciler) decided(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	if !order.Status.Ready {
		order.Status.Size = len(order.Status.Conditions) + 1
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return fmt.Errorf("widget %s: %w", req.NamespacedName, err)
	}
	return nil
}

// The same decision after a status change and an early return: Retry
// would refuse the change made before it (it would be lost on a
// conflict), so the write is a Flush.
func (r *OrderReconciler) decidedAfterChange(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Ready = false
	if order.Spec.Size < 0 {
		return errors.New("negative size")
	}
	order.Status.Size = len(order.Status.Conditions)
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A decision whose value is used after the write stays outside Retry:
// the write is a Flush.
func (r *OrderReconciler) decidedUsedAfter(ctx context.Context, req ctrl.Request) (bool, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return false, err
	}
	first := len(order.Status.Conditions) == 0
	order.Status.Ready = first
	err := r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	return first, err
}

// The plan decided once: the if reads the status, its body takes the
// base, decides and writes. The whole if moves into Retry's mutate: on a
// conflict the condition is decided again from the object re-read, so a
// plan another reconcile stored is not decided twice. The deferred
// literal before it runs as the function returns, not there.
func (r *OrderReconciler) planOnce(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		logr.FromContextOrDiscard(ctx).Info("reconciled", "size", order.Status.Size)
	}()
	if order.Status.Size == 0 {
		patch := client.MergeFrom(order.DeepCopy())
		order.Status.Size = plan(order)
		if err := r.Status().Patch(ctx, order, patch); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

func plan(w *v1.Widget) int { return w.Spec.Size + 1 } // want plan:`^statusOnly\[0\]$`

// A parent claiming its children, an Update of each item of a List in a
// guard reading the item's status, the error assigned to the function's
// variable: the item's patcher is made where the item is taken; the
// guard stays (a false one must leave err as it was) and is decided
// again in Retry's mutate.
func (r *OrderReconciler) claim(ctx context.Context, owner string) (err error) {
	var list orderList
	if err = r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		child := &list.Items[i]
		if child.Status.Size == 0 {
			child.Status.Size = len(owner)
			if err = r.Status().Update(ctx, child); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				return err
			}
		}
	}
	return nil
}

// Phase functions, then one write: a phase decides from the status it is
// given, so the phases go into Retry's mutate.
func (r *OrderReconciler) phased(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	phaseCount(order)
	phaseReady(order)
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func phaseCount(w *v1.Widget) { w.Status.Size = w.Spec.Size } // want phaseCount:`^statusOnly\[0\]$`

func phaseReady(w *v1.Widget) { // want phaseReady:`^statusOnly\[0\]$`
	if w.Status.Size > 0 {
		w.Status.Ready = true
	}
}

// applyPatch is an apply patch of the project's own type.
type applyPatch struct{ data []byte }

func (p applyPatch) Type() types.PatchType              { return types.ApplyPatchType } // want Type:`^const:application/apply-patch\+yaml$`
func (p applyPatch) Data(client.Object) ([]byte, error) { return p.data, nil }          // want Data:`^statusOnly\[0\] recvField:data$`

// An apply patch of its own type with a field owner and forced ownership,
// of bytes it is given: where they come from keeps it, and the reason
// says so, not "several options" (which apply mode takes).
func (r *OrderReconciler) applied(ctx context.Context, order *v1.Widget, data []byte) error {
	return r.Status().Patch(ctx, order, applyPatch{data}, client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: the bytes data are not made by data, err := json.Marshal\(ac\) in this function: -fix moves the apply of a configuration it marshals there\)$`
}

// buildPatch makes the object and its patch (trust-manager's
// ssa_client.GenerateBundleStatusPatch).
// A nil patch returned with its error is not the patch it gives: the
// fact names the patch built.
func buildPatch(name string, data []byte) (*v1.Widget, client.Patch, error) { // want buildPatch:`^patch\(1: unresolved: patch of type applyPatch built in buildPatch, not one of controller-runtime's: its Data is not read\)$`
	if len(data) == 0 {
		return nil, nil, errors.New("no data")
	}
	w := &v1.Widget{}
	w.Name = name
	return w, applyPatch{data}, nil
}

// A patch a function returns with the object, with a field owner and
// forced ownership: the object, which the function never reads, is what
// keeps it, not "several options".
func (r *OrderReconciler) built(ctx context.Context, name string, data []byte) error {
	w, patch, err := buildPatch(name, data)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, patch, client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: w, the Widget written, is returned with the patch by buildPatch at line \d+, not read with Get in built: the patcher is made from a read of the object \(its lock\), the read the status was decided from; move it by hand\)$`
}

// The tutorial's re-fetch in a branch, then a decision from the status:
// the re-Get becomes the patcher's Fetch, so the object the decision
// reads is what the patcher holds on both paths, and the decision moves
// into its Retry (the new user's project A).
func (r *OrderReconciler) refetchThenDecide(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(order.Status.Conditions) == 0 {
		meta.SetStatusCondition(&order.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, order); err != nil {
			return ctrl.Result{}, err
		}
	}
	if order.Status.Size == 0 {
		order.Status.Size = len(order.Spec.Roles) + 1
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}
