package cacheditem

// A List is known by its type (it embeds metav1.ListMeta or implements
// client.ObjectList, and its items are its Items), not by a field's
// name: a struct of the user's with an Items field gets no note.

import (
	"context"

	v1 "example.com/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A List by its embedded ListMeta alone, as generated lists are
// (v1.WidgetList: metav1.TypeMeta, metav1.ListMeta, Items), filled by a
// function of the user's.
type metaList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []v1.Widget
}

func fill(ctx context.Context, c client.Client, list *metaList) error { return nil }

func listMeta(ctx context.Context, c client.Client) error {
	var list metaList
	if err := fill(ctx, c, &list); err != nil {
		return err
	}
	for i := range list.Items {
		p := v1.NewWidgetStatusPatcher(c, &list.Items[i])
		p.Object().Status.Ready = true
		if err := p.Flush(ctx); err != nil { // want `its patcher is made at line 32 over an item of a List, the cache.s copy`
			return err
		}
	}
	return nil
}

// A struct of the user's holding objects in a field named Items, not a
// List: it neither embeds ListMeta nor is a client.ObjectList, and
// what it holds is what the user put there (here, Get's objects): no note.
// At main (a field named Items was an item) it was noted.
type widgetSet struct {
	Items []*v1.Widget
}

func userSet(ctx context.Context, c client.Client, keys []client.ObjectKey) error {
	var set widgetSet
	for _, k := range keys {
		w := &v1.Widget{}
		if err := c.Get(ctx, k, w); err != nil {
			return err
		}
		set.Items = append(set.Items, w)
	}
	for _, w := range set.Items {
		w.Status.Ready = true
		if err := v1.NewWidgetStatusPatcher(c, w).Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}

// A List whose slice is named otherwise: apimachinery reads a List's
// items from its Items field alone (meta.GetItemsPtr), so no cache fills
// this slice: no note.
type renamedList struct {
	metav1.ListMeta
	Widgets []v1.Widget
}

func renamed(ctx context.Context, c client.Client, list *renamedList) error {
	for i := range list.Widgets {
		p := v1.NewWidgetStatusPatcher(c, &list.Widgets[i])
		p.Object().Status.Ready = true
		if err := p.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}
