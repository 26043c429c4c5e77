package migratechain

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A chain whose middle function has a second caller that makes no read:
// the whole chain stays, naming that call and why.
func (r *Reconciler) Twice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.middle(ctx, w)
}

// Fresh builds its object: nothing is read.
func (r *Reconciler) Fresh(ctx context.Context) error {
	w := &v1.Widget{}
	w.Name = "fresh"
	return r.middle(ctx, w)
}

func (r *Reconciler) middle(ctx context.Context, w *v1.Widget) error {
	return r.leaf(ctx, w)
}

func (r *Reconciler) leaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of leaf: its caller at line 29 hands on w, a parameter of middle, and its caller at line 25: w is not read with Get in this function before its call of middle: where its status changes start is not seen; make NewWidgetStatusPatcher there and pass it\)$`
}

// A chain whose middle function changes the object's identity: it
// stays (a change of its spec moves, leaving it unsent as the Update
// did: migratechainunsent).
func (r *Reconciler) Spec(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.resize(ctx, w)
}

func (r *Reconciler) resize(ctx context.Context, w *v1.Widget) error {
	w.Namespace = "moved"
	return r.leafSpec(ctx, w)
}

func (r *Reconciler) leafSpec(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of leafSpec: its caller at line 50 hands on w, a parameter of resize, and w\.Namespace is changed at line 49: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A chain from a List's items: the items are the cache's, never
// plain-Flushed; the chain stays, as a helper one level down does.
func (r *Reconciler) Items(ctx context.Context) error {
	var list widgetList
	if err := r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		if err := r.itemVia(ctx, &list.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

func (r *Reconciler) itemVia(ctx context.Context, w *v1.Widget) error {
	return r.itemLeaf(ctx, w)
}

func (r *Reconciler) itemLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of itemLeaf: its caller at line 74 hands on w, a parameter of itemVia, and its call at line 66 passes &list\.Items\[i\], not a variable\)$`
}

// widgetList is what a List fills: items the cache holds.
type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// A link that defers its call and renames the object below it: the
// deferred write runs after that change, which the Update follows and
// the patcher does not; at 7a366da the chain moved (then with a spec
// change, which a Flush refused: patcher.ErrNonStatusChange).
func (r *Reconciler) Deferred(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.deferVia(ctx, w)
}

func (r *Reconciler) deferVia(ctx context.Context, w *v1.Widget) error {
	defer r.deferLeaf(ctx, w)
	w.Name = "renamed"
	return nil
}

func (r *Reconciler) deferLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of deferLeaf: its caller at line 102 hands on w, a parameter of deferVia, and w\.Name is changed at line 103: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A chain from a List's item named by a local: it stays, and the reason
// names the caller's client (at 7a366da, "(ast: <nil>)").
func (r *Reconciler) ItemsLocal(ctx context.Context) error {
	var list widgetList
	if err := r.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		it := &list.Items[i]
		if err := r.itemLocalVia(ctx, it); err != nil {
			return err
		}
	}
	return nil
}

func (r *Reconciler) itemLocalVia(ctx context.Context, w *v1.Widget) error {
	return r.itemLocalLeaf(ctx, w)
}

func (r *Reconciler) itemLocalLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of itemLocalLeaf: its caller at line 129 hands on w, a parameter of itemLocalVia, and its caller at line 121: it is an item of a list at line 120, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client\.ObjectKeyFromObject\(it\)\), which reads it fresh, and Flush it here\)$`
}
