// Package migratereadfresh: a write of the object outside its status
// between its read and its copy, whose answer is decoded into it and
// whose error returns, is a read again (migratereadfresh.go); what only
// reads the object between does not block; a change that no such write
// stores still does, named.
package migratereadfresh

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "example.com/final"

type Reconciler struct {
	client.Client
	seen map[string]string
}

// record keeps copies of the labels' entries under the object's name:
// it only reads the map it is given.
func (r *Reconciler) record(labels map[string]string, name string) {
	for k, v := range labels {
		r.seen[name+"/"+k] = v
	}
}

// kueue's ClusterQueue (clusterqueue_controller.go:160-216): getters and
// ContainsFinalizer read, the finalizer added and written by Update,
// whose answer is decoded into w and whose error returns; the copy after
// it is what the server stored. The helper takes the patcher made at the
// copy.
func (r *Reconciler) kueueShape(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return client.IgnoreNotFound(err)
	}
	r.record(w.GetLabels(), w.GetName())
	if w.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(&w, finalizer) {
			controllerutil.AddFinalizer(&w, finalizer)
			if err := r.Update(ctx, &w); err != nil {
				return client.IgnoreNotFound(err)
			}
		}
	} else if controllerutil.ContainsFinalizer(&w, finalizer) {
		controllerutil.RemoveFinalizer(&w, finalizer)
		if err := r.Update(ctx, &w); err != nil {
			return client.IgnoreNotFound(err)
		}
		return nil
	}
	c := w.DeepCopy()
	return r.updateStatusIfChanged(ctx, c, w.Name != "")
}

func (r *Reconciler) updateStatusIfChanged(ctx context.Context, w *v1.Widget, ready bool) error {
	if w.Status.Ready == ready {
		return nil
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The same with the write in the function: Update, DeepCopy, the status
// changed, a merge patch from the copy's base.
func (r *Reconciler) updateThenPatch(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if !controllerutil.ContainsFinalizer(w, finalizer) {
		controllerutil.AddFinalizer(w, finalizer)
		if err := r.Update(ctx, w); err != nil {
			return err
		}
	}
	c := w.DeepCopy()
	base := c.DeepCopy()
	c.Status.Size = 3
	return r.Status().Patch(ctx, c, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Getters and a condition looked up between the read and the copy: read.
func (r *Reconciler) getterBetween(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	if !w.DeletionTimestamp.IsZero() || len(w.GetFinalizers()) == 0 {
		return nil
	}
	ready := meta.FindStatusCondition(w.Status.Conditions, "Ready") != nil
	c := w.DeepCopy()
	c.Status.Ready = ready
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// err := c.Update(...), then if err != nil { return }: the same read.
func (r *Reconciler) updateErrReturns(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Labels = map[string]string{"app": "x"}
	err := r.Update(ctx, &w)
	if err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A change after the Update, before the copy: no write stores it; it
// stays, naming the change.
func (r *Reconciler) changeAfterUpdate(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	controllerutil.AddFinalizer(&w, finalizer)
	if err := r.Update(ctx, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 131, a copy of w's read at line 123, but w is changed or handed on at line 130 \(w\.Status\.Size\), between them: the copy may not be what the server stored, and -fix makes the patcher at a copy only of an object unchanged since its read\)$`
}

// A change on a path the Update does not follow (the Update under
// another if): it stays, naming the change.
func (r *Reconciler) changeBesideUpdate(ctx context.Context, key client.ObjectKey, add, save bool) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	if add {
		controllerutil.AddFinalizer(&w, finalizer)
	}
	if save {
		if err := r.Update(ctx, &w); err != nil {
			return err
		}
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 151, a copy of w's read at line 140, but w is changed or handed on at line 144 \(&w\), between them: `
}

// A change before the Update with a break that may leave the loop past
// it: it stays, naming the change.
func (r *Reconciler) changeThenBreak(ctx context.Context, key client.ObjectKey, names []string) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	for _, n := range names {
		controllerutil.AddFinalizer(&w, n)
		if n == "" {
			break
		}
		if err := r.Update(ctx, &w); err != nil {
			return err
		}
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 172, a copy of w's read at line 160, but w is changed or handed on at line 164 \(&w\), between them: `
}

// An Update whose error goes on: where it fails, w keeps the finalizer
// the server did not store. It stays, naming the write.
func (r *Reconciler) updateErrGoesOn(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	controllerutil.AddFinalizer(&w, finalizer)
	if err := r.Update(ctx, &w); err != nil {
		r.seen["error"] = err.Error()
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 188, a copy of w's read at line 181, but r\.Update writes w at line 185, between them, and its error does not return there: where it fails, w keeps what was not stored, and -fix makes the patcher at a copy only of an object unchanged since its read or a write that returns on its error\)$`
}

// A pointer read, its finalizer added and sent by a Patch from a base
// taken before: the Patch's answer is decoded into w, its error returns.
func (r *Reconciler) patchThenCopy(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	controllerutil.AddFinalizer(w, finalizer)
	if err := r.Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Not found, the object built and created: Create decodes the server's
// answer into w, its error returns.
func (r *Reconciler) createdAfterRead(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	err := r.Get(ctx, key, &w)
	if client.IgnoreNotFound(err) != nil {
		return err
	}
	if err != nil {
		w = v1.Widget{}
		w.Name = key.Name
		if err := r.Create(ctx, &w); err != nil {
			return err
		}
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A dry-run Update: what it decodes into w was not stored. It stays,
// naming it.
func (r *Reconciler) dryRunBetween(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	controllerutil.AddFinalizer(&w, finalizer)
	if err := r.Update(ctx, &w, client.DryRunAll); err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `\(not moved to the patcher: c is w\.DeepCopy\(\) at line 241, a copy of w's read at line 234, but r\.Update at line 238, between them, is or may be a dry run \(client\.DryRunAll, or options -fix cannot read there\): what it decodes into w may not be stored, and -fix makes the patcher at a copy only of an object unchanged since its read\)$`
}
