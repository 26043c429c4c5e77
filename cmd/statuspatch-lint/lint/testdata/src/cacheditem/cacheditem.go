// Package cacheditem: a generated patcher made with New over a List's
// item (the cache's copy) and flushed plainly stays optimistic (its lock
// turns a lagging cache into a conflict, never a lost write), and the
// audit says so and names the fix; Retry, a Fetch, an object a Get read
// and a DeepCopy of an item then fetched get no note.
package cacheditem

import (
	"context"
	"log"

	v1 "example.com/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type pointerList struct {
	Items []*v1.Widget
}

func (l *pointerList) DeepCopyObject() runtime.Object { return l }

// R's itemFixed: &list.Items[i], flushed.
func indexed(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		p := v1.NewWidgetStatusPatcher(c, &list.Items[i])
		p.Object().Status.Ready = true
		if err := p.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\); its patcher is made at line 36 over an item of a List, the cache's copy: this Flush conflicts whenever the cache lags behind this process's last write of the item; make the patcher with FetchWidgetStatusPatcherInto, which reads it fresh, or write with Retry, which re-reads on a conflict$`
			return err
		}
	}
	return nil
}

// A range variable's address.
func ranged(ctx context.Context, c client.Client) {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return
	}
	for _, w := range list.Items {
		p := v1.NewWidgetStatusPatcher(c, &w)
		w.Status.ObservedGeneration++
		if err := p.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\); its patcher is made at line 52 over an item of a List`
			log.Print(err)
		}
	}
}

// An element of []*Kind, through a map filled from the List.
func mapped(ctx context.Context, c client.Client, name string) error {
	var list pointerList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	byName := map[string]*v1.Widget{}
	for _, w := range list.Items {
		byName[w.Name] = w
	}
	w := byName[name]
	w.Status.Ready = true
	return v1.NewWidgetStatusPatcher(c, w).Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\); its patcher is made at line 72 over an item of a List`
}

// Retry re-reads on a conflict: no note.
func retried(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		p := v1.NewWidgetStatusPatcher(c, &list.Items[i])
		if err := p.Retry(ctx, func(w *v1.Widget) error { w.Status.Ready = true; return nil }); err != nil { // want `^optimistic: WidgetStatusPatcher.Retry of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}

// A Fetch reads the item fresh: no note.
func fetched(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		p, err := v1.FetchWidgetStatusPatcherInto(ctx, c, client.ObjectKeyFromObject(w), w)
		if err != nil {
			return err
		}
		p.Object().Status.Ready = true
		if err := p.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}

// The item read again with Get before the patcher: no note.
func reread(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if err := c.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
			return err
		}
		w.Status.Ready = true
		if err := v1.NewWidgetStatusPatcher(c, w).Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}

// A Get's object: no note.
func got(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return v1.NewWidgetStatusPatcher(c, w).Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
}

// A DeepCopy of an item, then fetched into: no note.
func copiedFetched(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		w := list.Items[i].DeepCopy()
		p, err := v1.FetchWidgetStatusPatcherInto(ctx, c, client.ObjectKeyFromObject(w), w)
		if err != nil {
			return err
		}
		p.Object().Status.Ready = true
		if err := p.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
			return err
		}
	}
	return nil
}

// A DeepCopy of an item given to New: the cache's copy still.
func copied(ctx context.Context, c client.Client) error {
	var list widgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		w := list.Items[i].DeepCopy()
		w.Status.Ready = true
		if err := v1.NewWidgetStatusPatcher(c, w).Flush(ctx); err != nil { // want `its patcher is made at line 168 over an item of a List`
			return err
		}
	}
	return nil
}
