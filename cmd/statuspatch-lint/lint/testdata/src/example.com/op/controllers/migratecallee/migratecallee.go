// Package migratecallee: what a callee does to the object, from its
// body: karpenter's IsManaged reads it in a closure handed to a generic
// slice helper (a reader); a closure that changes the spec, or that is
// kept, is not.
package migratecallee

import (
	"context"
	"fmt"
	"slices"

	v1 "example.com/op/api/v1"
	"example.com/op/conds"
	"example.com/op/managedutil"
	"github.com/samber/lo"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	images []string
	set    conds.Set
}

// karpenter's counter controller: IsManaged, then the base.
func (r *Reconciler) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	if !managedutil.IsManaged(w, r.images) {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The same in a closure of the package.
func (r *Reconciler) local(ctx context.Context, w *v1.Widget) error {
	managed := false
	for _, image := range r.images {
		if func() bool { return w.Spec.Template != nil && w.Spec.Template.Image == image }() {
			managed = true
		}
	}
	if !managed {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A closure that only reads the object, kept: it cannot change it.
func (r *Reconciler) retained(ctx context.Context, w *v1.Widget) error {
	managedutil.Retain(w)
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method of the kind whose body changes only the status
// (karpenter's CapacityBuffer.SetCondition), before the base and after.
func (r *Reconciler) condition(ctx context.Context, w *v1.Widget) error {
	w.SetCondition(metav1.Condition{Type: "Seen"})
	stored := w.DeepCopy()
	w.SetCondition(metav1.Condition{Type: "Ready"})
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method that changes the spec: it stays.
func (r *Reconciler) grown(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Grow()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Grow is called at line 73, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

// The closure changes the spec: it stays.
func (r *Reconciler) resized(ctx context.Context, w *v1.Widget) error {
	managedutil.Resize(w, []int{1})
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is handed to managedutil\.Resize at line 80, before the base at line 81, where w\.Spec is changed at managedutil\.go:34: a change through that reference after the base at line 81 would be unseen\)$`
}

// widgetList is what a List fills: items the cache holds.
type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// karpenter's overlays: &list.Items[i] written in place, a List item.
func (r *Reconciler) overlays(ctx context.Context) error {
	var list widgetList
	if err := r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		stored := list.Items[i].DeepCopy()
		list.Items[i].Status.Ready = true
		if err := r.Status().Patch(ctx, &list.Items[i], client.MergeFrom(stored)); err != nil { // want `\(not moved to the patcher: the object &list.Items\[i\] is an item of a list, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(&list.Items\[i\]\)\), which reads it fresh, and Flush it here\)`
			return err
		}
	}
	return nil
}

// jobset's Reconcile: a local value read by Get, its address handed to
// a function that reads it, to one that sets its status, then to the
// helper that writes it: the patcher is made over &w after the Get.
func (r *Reconciler) byValue(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	if deleting(&w) {
		return nil
	}
	r.observe(&w)
	return r.updateStatus(ctx, &w)
}

func deleting(w *v1.Widget) bool { return !w.DeletionTimestamp.IsZero() } // want deleting:`^statusOnly\[0\]$`

func (r *Reconciler) observe(w *v1.Widget) { w.Status.Size = w.Spec.Size } // want observe:`^statusOnly\[0\]$`

func (r *Reconciler) updateStatus(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method of the kind that reads the spec through a method declared
// after it, and returns an error (karpenter's RuntimeValidate): a read.
func (r *Reconciler) validated(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = w.Validate() == nil
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// karpenter's liveness: a closure before the base compares a kind named
// through a runtime.Object (object.GVK), then the base.
func (r *Reconciler) owned(ctx context.Context, w *v1.Widget, kinds []string) error {
	if !slices.ContainsFunc(kinds, func(k string) bool { return k == managedutil.KindOf(w) }) {
		return nil
	}
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A method of the kind that hands a reference three functions deep, each
// only reading it (karpenter's RuntimeValidate): a read.
func (r *Reconciler) validatedDeep(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = w.ValidateDeep() == nil
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// karpenter's readiness: the conditions set through the Set the kind's
// StatusConditions returns, which holds the object and calls its
// SetConditions (a status change) through conds.Object.
func (r *Reconciler) ready(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	if !w.StatusConditions().IsTrue("Seen") && w.StatusConditions().IsDependent("Seen") {
		w.StatusConditions().SetTrue("Seen")
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// karpenter's queue: Get, the copy, a condition set through a local Set.
func (r *Reconciler) marked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	stored := w.DeepCopy()
	set := w.StatusConditions()
	_ = set.SetUnknown("Seen")
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The holder's method hands the object on: what is done with it is not
// known.
func (r *Reconciler) handedOn(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.StatusConditions().Object().SetConditions(nil)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the conds.Set made at line 187 holds w, and its method Object, called at line 187, does more with it: s.object is handed on at conds.go:\d+\)`
}

// A holder whose method calls a setter that changes the spec: the
// reason names the setter's line.
func (r *Reconciler) resizedHeld(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	conds.Track(w).Resize(3)
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the conds.Tracker made at line 195 holds w and calls its v1.Widget.SetSize at conds.go:\d+, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

// The Set kept in an unexported field, whose one use sets a condition: moves.
func (r *Reconciler) keptSet(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	r.set = w.StatusConditions()
	r.set.SetTrue("Seen")
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The same, but a function given &w changes its spec: kept, naming it.
func (r *Reconciler) byValueGrown(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	r.grow(&w)
	return r.saveStatus(ctx, &w)
}

func (r *Reconciler) grow(w *v1.Widget) { w.Spec.Size++ }

func (r *Reconciler) saveStatus(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `its caller at line 215: w is passed to Reconciler.grow at line 214, where w.Spec is changed at line 218: the patcher writes only the status`
}

// karpenter's capacity buffer and requirements: the limits' quantities
// read by MilliValue, the zones filtered by samber/lo, readers of packages
// -fix does not analyse (each checked against its source).
func (r *Reconciler) limited(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	var milli int64
	for _, q := range w.Spec.Limits {
		milli += q.MilliValue()
	}
	zones := lo.Filter(w.Spec.Zones, func(z string, _ int) bool { return z != "" })
	w.Status.Size = int(milli) + len(zones)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Quantity.String caches its text in the quantity: kept.
func (r *Reconciler) limitText(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	for _, q := range w.Spec.Limits {
		w.Status.Ready = q.String() != ""
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `q.String is called \(Quantity.String is of k8s.io/apimachinery/pkg/api/resource, whose bodies -fix does not analyse\)`
}

// lo.Filter of elements that hold references: kept.
func (r *Reconciler) scaledRoles(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	roles := lo.Filter(w.Spec.Roles, func(role v1.Role, _ int) bool { return role.Scaling != nil })
	w.Status.Size = len(roles)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `w.Spec.Roles, a reference into the object, is passed to lo.Filter \(Filter is of github.com/samber/lo`
}

// jobset's managedByExternalController: a reference into the spec that
// a function of the package returns, which the caller compares with nil
// and prints: read.
func (r *Reconciler) managedBy(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	if pod := podName(w); pod != nil {
		fmt.Println("managed by", pod)
		return nil
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func podName(w *v1.Widget) *string { // want podName:`^returns\[0:\[0\]\]$`
	if n := w.Spec.PodName; n != nil && *n != "" {
		return n
	}
	return nil
}

// The caller writes through what it returns: kept, naming the line.
func (r *Reconciler) renamed(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	if pod := podName(w); pod != nil {
		*pod = "renamed"
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `w is passed to podName at line 279, where what it returns, a reference into w, may be changed at line 279: podName\(w\), a reference into the object, is assigned to pod, where \*pod is changed at line 280`
}

// jobset's TTL: the object deleted, then its status written (with a
// finalizer it is still there): Delete decodes nothing into it.
func (r *Reconciler) expired(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	if w.Spec.Size == 0 {
		if err := r.Delete(ctx, w, deleteOpts...); err != nil {
			return err
		}
	}
	w.Status.Ready = false
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// deleteOpts are the options of expired's Delete, spread.
var deleteOpts []client.DeleteOption

// A holder calls, through an interface, a method named GetCount whose
// body changes the spec: kept, naming it (not a reader by its name).
func (r *Reconciler) countedHeld(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = conds.Count(w).Next() > 1
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the conds.Counter made at line \d+ holds w and calls its v1.Widget.GetCount at conds.go:\d+, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

// The same method called on the object itself: kept.
func (r *Reconciler) counted(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.Ready = w.GetCount() > 1
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `not moved to the patcher: w.GetCount is called at line \d+, where w.Spec is changed at types.go:\d+`
}

// A holder's setter in a go statement: it races the write as it races
// the handwritten Patch (the patcher diffs at Flush as Patch does): moved.
func (r *Reconciler) setInGo(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	set := w.StatusConditions()
	go set.SetTrue("Seen")
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A holder's setter deferred: it runs after the write, which sends it
// no more than the handwritten Patch did: moved.
func (r *Reconciler) setDeferred(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	set := w.StatusConditions()
	defer set.SetTrue("Seen")
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The holder local made again from the same object after a first set:
// its uses are followed again (was kept, "handed on").
func (r *Reconciler) setAgain(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	s := w.StatusConditions()
	s.SetUnknown("Seen")
	s = w.StatusConditions()
	s.SetTrue("Seen")
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A holder local reassigned to a holder whose setter changes the spec:
// kept, naming it.
func (r *Reconciler) resizedAgain(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	t := conds.Track(w)
	t = conds.Track(w)
	t.Resize(3)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the conds.Tracker made at line \d+ holds w and calls its v1.Widget.SetSize at conds.go:\d+, where w.Spec is changed at types.go:\d+`
}

// A checker is called through an interface a field holds (karpenter's
// consistency Check.Check over c.checks): which implementation runs is
// not followed, and the reason says so.
type checker interface{ check(*v1.Widget) bool }

type checking struct {
	client.Client
	checks []checker
}

func (c *checking) checked(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	for _, ch := range c.checks {
		w.Status.Ready = ch.check(w)
	}
	return c.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to checker.check at line \d+ \(check is a method of an interface: which implementation runs there is not followed\): it may change more than its status\)`
}

// lastPod shares the spec's pointer (karpenter's
// cb.Status.ProvisioningStrategy = cb.Spec.ProvisioningStrategy): what is
// done through it is not followed, and the reason names where it goes.
var lastPod *string

func (r *Reconciler) sharedPod(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	lastPod = w.Spec.PodName
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Spec.PodName, a reference into the object, is assigned to lastPod, whose uses are not followed`
}

// annotate sets a label and writes it (karpenter's
// ensureTerminationGracePeriodTerminationTimeAnnotation).
func (r *Reconciler) annotate(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["example.com/seen"] = "true"
	return r.Patch(ctx, w, client.MergeFrom(stored))
}

// Its metadata changed by a function of the package before the base:
// it stays, naming the function and what it changes.
func (r *Reconciler) annotated(ctx context.Context, w *v1.Widget) error {
	if err := r.annotate(ctx, w); err != nil {
		return err
	}
	stored := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is handed to r\.annotate at line 400, before the base at line 403, where w\.Labels is changed at line 391: a change through that reference after the base at line 403 would be unseen\)$`
}

// runChecks hands the object to the checkers (karpenter's
// annotateTerminationGracePeriodTerminationTime publishing an event).
func (c *checking) runChecks(w *v1.Widget) {
	for _, ch := range c.checks {
		ch.check(w)
	}
}

// Handed before the base to a function of the package that passes it to
// an interface's method: it stays, naming what the function does.
func (c *checking) checkedFirst(ctx context.Context, w *v1.Widget) error {
	c.runChecks(w)
	stored := w.DeepCopy()
	w.Status.Ready = true
	return c.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is handed to c\.runChecks at line 419, before the base at line 420, where w is passed to checker\.check at line 412 \(check is a method of an interface: which implementation runs there is not followed\): a change through that reference after the base at line 420 would be unseen\)$`
}
