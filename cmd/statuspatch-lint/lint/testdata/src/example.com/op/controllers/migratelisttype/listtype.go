// Package migratelisttype: a List is known by its type (it embeds
// metav1.ListMeta or implements client.ObjectList; its items are its
// Items), not by a field's name. A write of a real List's item stays
// named "an item of a list, a cached copy"; one of an element of a
// user's struct with an Items field is named as the slice's element, a
// copy the model cannot show fresh, never the cache's.
package migratelisttype

import (
	"context"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WidgetList is as generated: a List by its embedded ListMeta.
type WidgetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []v1.Widget
}

// widgetSet is the user's: Get's objects gathered, no List.
type widgetSet struct {
	Items []*v1.Widget
}

// widgetValues is the user's too, its Items held as values.
type widgetValues struct {
	Items []v1.Widget
}

type Reconciler struct {
	client.Client
}

func (r *Reconciler) listed(ctx context.Context, list *WidgetList) error {
	return r.Status().Update(ctx, &list.Items[0]) // want `\(not moved to the patcher: the object &list.Items\[0\] is an item of a list, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(&list.Items\[0\]\)\), which reads it fresh, and Flush it here\)$`
}

func (r *Reconciler) inPlace(ctx context.Context, vals *widgetValues) error {
	return r.Status().Update(ctx, &vals.Items[0]) // want `\(not moved to the patcher: the object &vals.Items\[0\] is an element of the slice vals.Items, a copy the model cannot show fresh: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(&vals.Items\[0\]\)\), which reads it fresh, and Flush it here\)$`
}

// What the user's slice holds is a copy the model cannot show fresh, as
// a List's item is: the decision goes into Retry, which reads it again on
// a conflict, never a plain Flush of it.
func (r *Reconciler) gathered(ctx context.Context, keys []client.ObjectKey) error {
	var set widgetSet
	for _, k := range keys {
		w := &v1.Widget{}
		if err := r.Get(ctx, k, w); err != nil {
			return err
		}
		set.Items = append(set.Items, w)
	}
	w := set.Items[0]
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
