package fixkeeps

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type gadgetList struct{ Items []v1.Gadget }

func (l *gadgetList) DeepCopyObject() runtime.Object { return l }

type widgetList struct{ Items []v1.Widget }

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// A late base in a loop over a List's items: the next turn's change is of
// the next item, not between this item's base and its write. At fc01b3f
// it counted as one (the same SSA value), so the patch was called blind
// and got the lock: it then sent only the resourceVersion, storing
// nothing and conflicting, and -ci no longer reported it.
func lateItems(ctx context.Context, c client.Client) error {
	list := &gadgetList{}
	if err := c.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		g := &list.Items[i]
		g.Status.Phase = "Ready"
		patch := client.MergeFrom(g.DeepCopy())
		if err := c.Status().Patch(ctx, g, patch); err != nil { // want `^empty: Status\(\).Patch of Gadget: this patch sends nothing: the base is taken after the status changes at line \d+; take it before them, or use the generated patcher$`
			return err
		}
	}
	return nil
}

// The same of a kind with a patcher: a List item, kept, with no lock.
func lateWidgetItems(ctx context.Context, c client.Client) error {
	list := &widgetList{}
	if err := c.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Ready = true
		if err := c.Status().Patch(ctx, w, client.MergeFrom(w.DeepCopy())); err != nil { // want `^empty: Status\(\).Patch of Widget: this patch sends nothing: the base is taken after the status changes at line \d+; take it before them, or use the generated patcher$`
			return err
		}
	}
	return nil
}

// Twin: a change of the item between its base and its write is sent.
func itemsChanged(ctx context.Context, c client.Client) error {
	list := &gadgetList{}
	if err := c.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		g := &list.Items[i]
		g.Status.Phase = "A"
		base := g.DeepCopy()
		g.Status.Phase = "B"
		if err := c.Status().Patch(ctx, g, client.MergeFrom(base)); err != nil { // want `^blind: Status\(\)\.Patch of Gadget: client.MergeFrom without optimistic lock$`
			return err
		}
	}
	return nil
}
