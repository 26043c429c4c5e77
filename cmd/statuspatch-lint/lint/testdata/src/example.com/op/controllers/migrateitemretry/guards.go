package migrateitemretry

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The object's package, which Retry's function names.
var _ *v1.Widget

// Issue 80 (U2's r3): a List item's write whose base is taken after a
// check of its status, the check the whole decision's head: the check
// moves into Retry's function with the decision, as the same loop with the
// base taken first, or written as an Update, does.

// IfForm: the base taken inside an if on the status; moved, the if kept
// around the Fetch and checked again in Retry's function.
func (p *Provisioner) IfForm(ctx context.Context, ready bool) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Ready != ready {
			base := w.DeepCopy()
			w.Status.Ready = ready
			if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				return err
			}
		}
	}
	return nil
}

// ContinueForm: a continue on the status, then the base (issue 80, U2's
// project D, U3's project E); moved, as the base taken first is
// (items.go's markReady): the Fetch made before the check, which moves
// into Retry's function, its continue mutate's return nil, the base gone.
func (p *Provisioner) ContinueForm(ctx context.Context, ready bool) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Ready == ready {
			continue
		}
		base := w.DeepCopy()
		w.Status.Ready = ready
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// ContinueAfterChange: the continue follows a change of the status, which
// the base taken after it holds; stays, naming the read.
func (p *Provisioner) ContinueAfterChange(ctx context.Context, ready bool) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Size++
		if w.Status.Ready == ready {
			continue
		}
		base := w.DeepCopy()
		w.Status.Ready = ready
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved`
			return err
		}
	}
	return nil
}

// CollectedName: a filter on the spec and a name collected before the
// check neither read the status nor change the item: they stay before
// the Fetch, run once; the check and the rest move into Retry.
func (p *Provisioner) CollectedName(ctx context.Context, size int) ([]string, error) {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return nil, err
	}
	var names []string
	for i := range list.Items {
		w := &list.Items[i]
		if w.Spec.Size == 0 {
			continue
		}
		names = append(names, w.Name)
		if w.Status.Size == size {
			continue
		}
		base := w.DeepCopy()
		w.Status.Size = size
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return nil, err
		}
	}
	return names, nil
}

// CollectedStatus: what is collected before the check reads the status,
// a part of the decision that Retry's function would collect once per
// run: stays, naming the collection.
func (p *Provisioner) CollectedStatus(ctx context.Context, size int) ([]int, error) {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return nil, err
	}
	var seen []int
	for i := range list.Items {
		w := &list.Items[i]
		seen = append(seen, w.Status.Size)
		if w.Status.Size == size {
			continue
		}
		base := w.DeepCopy()
		w.Status.Size = size
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `\(not moved to the patcher: w is an item of a list at line 120, a cached copy: .*; its decision cannot move into Retry: it sets seen at line 121, declared outside it: .*\)$`
			return nil, err
		}
	}
	return seen, nil
}
