// Package migrateitemretry: a List item's decision with an exit moves
// into Retry's mutate (karpenter's updateBufferProvisioningStatus: a
// value of the map byKey of List items, `continue` when there is no
// condition to set). A continue of the loop the write ends, or a return
// nil of a function that ends in `return <write>`, skips only the write:
// in mutate it is `return nil`, and Retry sends nothing; a return of an
// error the write's error path returns alike is mutate's. An exit after a
// change, one that skips more, or a call taking a context stays, named.
package migrateitemretry

import (
	"context"
	"errors"
	"fmt"

	v1 "example.com/op/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type Provisioner struct {
	client client.Client
}

// byName returns the List's items by name (karpenter's listAllBuffers
// and byKey).
func (p *Provisioner) byName(ctx context.Context) (map[string]*v1.Widget, error) {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return nil, err
	}
	out := map[string]*v1.Widget{}
	for i := range list.Items {
		out[list.Items[i].Name] = &list.Items[i]
	}
	return out, nil
}

// condition reads the widget (karpenter's computeProvisioningCondition).
func condition(w *v1.Widget, ready bool) *metav1.Condition { // want condition:`^statusOnly\[0\]$`
	if !meta.IsStatusConditionTrue(w.Status.Conditions, "Ready") && !ready {
		return nil
	}
	return &metav1.Condition{Type: "Provisioning", Status: "True", ObservedGeneration: w.Generation}
}

// karpenter's updateBufferProvisioningStatus: moved, continue in mutate.
func (p *Provisioner) updateAll(ctx context.Context, ready map[string]bool) error {
	byKey, err := p.byName(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for key, w := range byKey {
		stored := w.DeepCopy()
		cond := condition(w, ready[key])
		if cond == nil {
			continue
		}
		meta.SetStatusCondition(&w.Status.Conditions, *cond)
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(stored, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			errs = append(errs, fmt.Errorf("patching widget %q: %w", key, err))
		}
	}
	return errors.Join(errs...)
}

// A parameter whose caller passes a List item, an early return nil of a
// function ending in the write: moved, the return mutate's own.
func (p *Provisioner) markReady(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	if w.Status.Ready {
		return nil
	}
	w.Status.Ready = true
	return p.client.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (p *Provisioner) markAll(ctx context.Context) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		if err := p.markReady(ctx, &list.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// Kept: the continue skips the count after the write too.
func (p *Provisioner) countAll(ctx context.Context, byKey map[string]*v1.Widget) int {
	n := 0
	for _, w := range byKey {
		stored := w.DeepCopy()
		cond := condition(w, false)
		if cond == nil {
			continue
		}
		meta.SetStatusCondition(&w.Status.Conditions, *cond)
		if err := p.client.Status().Patch(ctx, w, client.MergeFrom(stored)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is a value of the map byKey at line 104, .*; its decision cannot move into Retry: the continue at line 108 skips more than the write, which mutate's return nil cannot\)$`
			return n
		}
		n++
	}
	return n
}

// Kept: the status changes before the continue, which wrote nothing.
func (p *Provisioner) halfway(ctx context.Context, byKey map[string]*v1.Widget) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		w.Status.Size++
		if w.Status.Ready {
			continue
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*; its decision cannot move into Retry: w may be changed before the continue at line 125, which wrote nothing where Retry would send the change\)$`
	}
}

// Moved: its error exit returns as the write's error path does (mutate's).
func (p *Provisioner) strict(ctx context.Context, byKey map[string]*v1.Widget) error {
	for key, w := range byKey {
		stored := w.DeepCopy()
		size := w.Status.Size
		if size < 0 {
			return fmt.Errorf("widget %s: negative size", key)
		}
		w.Status.Size = size + 1
		if err := p.client.Status().Patch(ctx, w, client.MergeFrom(stored)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// Kept: the decision asks the cluster.
func (p *Provisioner) asks(ctx context.Context, byKey map[string]*v1.Widget) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		cond := condition(w, true)
		if err := p.client.Get(ctx, client.ObjectKey{Name: "other"}, &v1.Widget{}); err != nil {
			continue
		}
		meta.SetStatusCondition(&w.Status.Conditions, *cond)
		p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*; its decision cannot move into Retry: the call at line 153 takes a context \(a call to the cluster, which a retry would repeat\)\)$`
	}
}

// karpenter's updateOverlayStatuses: &list.Items[i] written in place,
// whose conflict the code handles itself (the caller validates anew):
// kept, naming the IsConflict check: its lock is what it asks.
func (p *Provisioner) overlays(ctx context.Context, failed map[string]bool) (error, bool) {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err, false
	}
	for i := range list.Items {
		stored := list.Items[i].DeepCopy()
		list.Items[i].Status.Ready = !failed[list.Items[i].Name]
		if err := p.client.Status().Patch(ctx, &list.Items[i], client.MergeFrom(stored)); err != nil { // want `\(not moved to the patcher: the object &list.Items\[i\] is an item of a list, a cached copy, and its error is checked with IsConflict at line 173, where the code handles a conflict itself: its lock on the listed resourceVersion is what it asks \(Retry would retry the conflict with the status decided before the re-read, and a Fetch would write that status over a newer object\)\)`
			if apierrors.IsConflict(err) {
				return nil, true
			}
			return err, false
		}
	}
	return nil, false
}

// Kept: a method that sets the status (SetCondition's fact: statusOnly)
// before the continue.
func (p *Provisioner) setFirst(ctx context.Context, byKey map[string]*v1.Widget) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		w.SetCondition(metav1.Condition{Type: "Seen", Status: "True"})
		if w.Status.Ready {
			continue
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*; its decision cannot move into Retry: w may be changed before the continue at line 189, which wrote nothing where Retry would send the change\)$`
	}
}

// A map's item read in the comma-ok form and checked: moved, its
// patcher made after the check, its decision in Retry.
func (p *Provisioner) markOne(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	if w.Status.Ready {
		return nil
	}
	w.Status.Ready = true
	return p.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The same read, its decision's count Lists into a local: moved.
func (p *Provisioner) sizeOne(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = p.count(ctx)
	return p.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (p *Provisioner) count(ctx context.Context) int {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return 0
	}
	return len(list.Items)
}
