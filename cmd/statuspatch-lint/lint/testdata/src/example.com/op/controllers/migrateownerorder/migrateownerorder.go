// Package migrateownerorder: kept helpers called between a caller's read
// and its write; field owners of helpers, by order, path, variable (s95 F2).
package migrateownerorder

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const controllerName = "widget-controller"

type Reconciler struct {
	client.Client
}

// helperFirst hands the object to a helper writing with a field owner,
// then writes it itself without one.
func (r *Reconciler) helperFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.markOwned(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is handed to r\.markOwned at line 25, whose status write at line 34 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 22, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
}

func (r *Reconciler) markOwned(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `\(not moved to the patcher: w is a parameter of markOwned: its caller at line 25 also writes w's status at line 29, which does not move \(w is handed to r\.markOwned at line 25, whose status write at line 34 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 22, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)\)$`
}

// reversedPhases hands the object to two helpers with different field
// owners.
func (r *Reconciler) reversedPhases(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.secondPhase(ctx, w); err != nil {
		return err
	}
	return r.firstPhase(ctx, w)
}

func (r *Reconciler) firstPhase(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 1
	return r.Status().Update(ctx, w, client.FieldOwner("first")) // want `\(not moved to the patcher: w is a parameter of firstPhase: its caller at line 47 passes the same patcher to the status write at line 57, which has the field owner "second", and this one the field owner "first": a patcher sends one field owner \(patcher\.WithFieldOwner\)\)$`
}

func (r *Reconciler) secondPhase(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner("second")) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// byPath writes with one field owner or another.
func (r *Reconciler) byPath(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.markByPath(ctx, w, w.Spec.Size > 1)
}

func (r *Reconciler) markByPath(ctx context.Context, w *v1.Widget, big bool) error {
	w.Status.Ready = true
	if big {
		return r.Status().Update(ctx, w, client.FieldOwner("big")) // want `\(not moved to the patcher: w is a parameter of markByPath: its status write at line 74 has another field owner than the write at line 72: one patcher writes with one\)$`
	}
	return r.Status().Update(ctx, w, client.FieldOwner("small")) // want `\(not moved to the patcher: w is a parameter of markByPath: its status write at line 72 has another field owner than the write at line 74: one patcher writes with one\)$`
}

var ownerVar = "var-owner"

// fromVar writes with a package variable as its field owner, which
// another function sets.
func (r *Reconciler) fromVar(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ownerVar = w.Name
	return r.markVar(ctx, w)
}

func (r *Reconciler) markVar(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(ownerVar)) // want `\(not moved to the patcher: the write's field owner ownerVar uses the package variable ownerVar, set at line 86: the callers make the patcher with it, before this write, and might send another value\)$`
}

// specFirst hands the object to a helper kept for another reason (it
// changes the spec), then writes it itself.
func (r *Reconciler) specFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.markSpec(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is handed to r\.markSpec at line 102, whose status write at line 112 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 99, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
}

func (r *Reconciler) markSpec(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 3
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of markSpec: w\.Spec is changed at line 110: the patcher writes only the status \(Flush returns patcher\.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// sharedFirst and sharedAlone call one helper writing with a field
// owner: the first writes with the same owner after it and shares its
// patcher, the second makes one of its own with the owner.
func (r *Reconciler) sharedFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.markShared(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 4
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *Reconciler) sharedAlone(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.markShared(ctx, w)
}

func (r *Reconciler) markShared(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// loopAfter writes, then hands the object to a kept helper, twice: the
// second write follows the helper's (s95 R3, a review of 050ae56).
func (r *Reconciler) loopAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for i := range 2 {
		w.Status.Size = i
		if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is handed to r\.markLooped at line 155, whose status write at line 164 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 147, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
			return err
		}
		if err := r.markLooped(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

func (r *Reconciler) markLooped(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner("owner")) // want `\(not moved to the patcher: w is a parameter of markLooped: its caller at line 155 also writes w's status at line 152, which does not move \(w is handed to r\.markLooped at line 155, whose status write at line 164 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 147, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)\)$`
}

// deferLIFO defers its write, then a kept helper: the helper runs first.
func (r *Reconciler) deferLIFO(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 3
	defer r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is handed to r\.markDeferred at line 175, whose status write at line 181 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 170, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)$`
	defer r.markDeferred(ctx, w)
	return nil
}

func (r *Reconciler) markDeferred(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = false
	return r.Status().Update(ctx, w, client.FieldOwner("other")) // want `\(not moved to the patcher: w is a parameter of markDeferred: its caller at line 175 also writes w's status at line 174, which does not move \(w is handed to r\.markDeferred at line 175, whose status write at line 181 stays: it moves the resourceVersion and the status after the patcher's base is taken at line 170, and this write's Flush would conflict whenever it changes the status \(move that write first, or keep both\)\)\)$`
}
