// Package advretryhead: a decision whose head stays out of Retry's
// mutate. The status read that decides whether the write runs (an early
// return, the if or the case around it, a break or a labelled continue
// of a List item's loop) cannot run in mutate; the statements after it
// can. Moved into Retry alone, they were decided again on a conflict
// from a fresh read without that check: a plan another reconcile stored
// was built again over it, a phase another writer moved on was moved
// back. The handwritten write returned the 409 and the next reconcile
// checked again. The write is a Flush (the same 409), or, for a List
// item, stays, naming the read. A head that moves whole (the if around
// the write, an unlabelled continue) still moves into Retry.
package advretryhead

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type R struct {
	client.Client
}

// The README's plan, decided once: the early return is the check, and
// mutate's return nil (it gives what the write's success gives): the
// whole decision moves into Retry (retdone.go, s106).
func (r *R) earlyReturn(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size != 0 {
		return ctrl.Result{}, nil
	}
	w.Status.Size = w.Spec.Size + 1
	w.Status.Ready = w.Status.Size > 1
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The write in one branch of an if with an else.
func (r *R) ifElse(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		w.Status.Size = w.Status.Size + 1
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	} else {
		w.Status.Size = 0
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The write in a case of a switch on the status.
func (r *R) phase(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	switch w.Status.Size {
	case 1:
		w.Status.Size = w.Status.Size + 1
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	case 3:
		return nil
	}
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A List item whose loop ends at the first ready one.
func (r *R) itemBreak(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Ready {
			break
		}
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is an item of a list at line \d+, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r, client.ObjectKeyFromObject\(w\)\), which reads it fresh, and Flush it here; its decision cannot move into Retry: w's status is read at line \d+, before the decision, and that read would stay outside Retry's function, which on a conflict decides again from a fresh read without it\)$`
			return err
		}
	}
	return nil
}

// A List item skipped by a labelled continue from a loop over its
// conditions: the continue's target is the loop the write ends, so it is
// mutate's return nil and the loop over the conditions moves with the
// decision; the label, named by nothing else, is dropped.
func (r *R) itemLabel(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
outer:
	for i := range list.Items {
		w := &list.Items[i]
		for _, c := range w.Status.Conditions {
			if c.Type == "Frozen" {
				continue outer
			}
		}
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// The same check as a continue moves whole: mutate's return nil.
func (r *R) itemContinue(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Ready {
			continue
		}
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// The if around the write moves whole: its condition is decided again.
func (r *R) guardWhole(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = w.Spec.Size + 1
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// A merge patch in a case of a switch on the status: its base, in the
// case, is not where the decision starts; the read is (at f0ac829 the
// switch stayed outside Retry).
func (r *R) phasePatch(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	switch w.Status.Ready {
	case false:
		base := w.DeepCopy()
		w.Status.Size = w.Status.Size + 1
		return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}
	return nil
}

// A List item's decision that counts what it changes: each run of
// Retry's function would count again.
func (r *R) itemCount(ctx context.Context) (int, error) {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return 0, err
	}
	n := 0
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Size == 0 {
			w.Status.Size = 1
			n++
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sets n at line \d+, declared outside it: Retry's function may run more than once, and each run's effect on n would stay\)$`
			return n, err
		}
	}
	return n, nil
}

// A flag and a slice set in the decision (a flag set by the first run
// stays set when the re-read leaves nothing to change).
func (r *R) itemFlag(ctx context.Context) (bool, []string, error) {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return false, nil, err
	}
	changed := false
	var names []string
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			changed = true
			names = append(names, w.Name)
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sets changed at line \d+, declared outside it`
			return changed, names, err
		}
	}
	return changed, names, nil
}

// Twin: a decision whose own locals stay in it moves.
func (r *R) itemLocal(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		next := w.Status.Size + 1
		w.Status.Size = next
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// A base taken after a status change, dropped for a patcher made at the
// read: the change before it is pending when Retry starts, and Retry
// refuses it (patcher.ErrPendingChanges) on every run. A Flush, which
// sends both changes (at fc01b3f: Retry).
func (r *R) lateBaseDecide(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	base := w.DeepCopy()
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
