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

// ContinueForm: a continue on the status, then the base; stays, naming
// the read (the base taken first moves: items.go's markReady).
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
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is an item of a list at line 46, a cached copy: .*: w's status is read at line 47, before the decision`
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
