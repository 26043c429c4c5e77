// Package migratealiases: the names of one object (originalias.go): the
// copy of a read (kueue's ClusterQueue), a copy or a scope handed to a
// helper whose write stays, two objects of one kind beside a patch
// helper, a Patch through an interface.
package migratealiases

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// kueue's ClusterQueue: a value read with Get, its copy changed and
// written, nothing writing the original between: one life, the patcher
// made at the copy.
func (r *Reconciler) valueCopy(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	name := w.Name
	c := w.DeepCopy()
	c.Status.Ready = name != ""
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// kueue's whole shape: the finalizer written between the Get and the copy
// by an Update whose error returns: a read again, it moves (s101Q).
func (r *Reconciler) writtenBeforeCopy(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	if len(w.Finalizers) == 0 {
		w.Finalizers = append(w.Finalizers, "example.com/final")
		if err := r.Update(ctx, &w); err != nil {
			return err
		}
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The original's status changed before the copy: it stays, naming the
// change.
func (r *Reconciler) changedBeforeCopy(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = int(w.Generation)
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 58, a copy of w's read at line 54, but w is changed or handed on at line 57 \(w\.Status\.Size\), between them: the copy may not be what the server stored, and -fix makes the patcher at a copy only of an object unchanged since its read\)$`
}

// The original written after the copy, before the copy's write: it
// stays, naming that write.
func (r *Reconciler) writtenAfterCopy(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	c := w.DeepCopy()
	w.Finalizers = nil
	if err := r.Update(ctx, w); err != nil {
		return err
	}
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 70, a copy of w's read at line 67, and r\.Update writes w at line 72, after the copy and before this write: it moves the resourceVersion the patcher's base holds\)$`
}

// A copy read and not written: nothing to report.
func (r *Reconciler) copyOnly(ctx context.Context, key client.ObjectKey) (bool, error) {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return false, err
	}
	c := w.DeepCopy()
	return c.Status.Ready, nil
}

// The original's status changed through a pointer to it between the Get
// and the copy: the copy's base would hold Size, and the patcher's Flush
// would not send it, where the Update did. It stays, naming the change.
func (r *Reconciler) changedThroughPointer(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	p := &w
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	p.Status.Size = 5
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 99, a copy of w's read at line 95, but w is changed or handed on at line 98 \(p\.Status\.Size\), between them: `
}

// The same through a scope's field holding the original.
func (r *Reconciler) changedThroughScope(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	s := &widgetScope{Widget: w}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	s.Widget.Status.Size = 5
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 112, a copy of w's read at line 108, but w is changed or handed on at line 111 \(s\.Widget\.Status\.Size\), between them: `
}

// The same through a closure defined before the Get, called between it
// and the copy.
func (r *Reconciler) changedByClosure(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	grow := func() { w.Status.Size++ }
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	grow()
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 126, a copy of w's read at line 122, but w is changed or handed on at line 125 \(grow\(\)\), between them: `
}

// Two copies of one read, each written: the first moves; the second
// stays, naming the other copy (its patcher's Flush writes w's object).
func (r *Reconciler) twoCopies(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	a := w.DeepCopy()
	b := w.DeepCopy()
	a.Status.Ready = true
	if err := r.Status().Update(ctx, a); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	b.Status.Size = 2
	return r.Status().Update(ctx, b) // want `\(not moved to the patcher: b is w\.DeepCopy\(\) at line 139, a copy of w's read at line 135, but w is changed or handed on at line 138 \(w\.DeepCopy\), between them: `
}

// The same through a pointer into the original's status taken before the
// Get, which decodes into that memory.
func (r *Reconciler) changedThroughSubPointer(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	st := &w.Status
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	st.Size = 5
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 157, a copy of w's read at line 153, but w is changed or handed on at line 156 \(st\.Size\), between them: `
}
