package advvalue2

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) deferThenReGet(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	defer r.Status().Update(ctx, &w) // want `not moved to the patcher: the deferred call at line 20 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 25:`
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `not moved to the patcher: the deferred call at line 20 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 25:`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	return nil
}

func (r *R) closureAssign(ctx context.Context, req ctrl.Request, other v1.Widget) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	reset := func() { w = other }
	reset()
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is reassigned at line 37\)$`
}

func (r *R) swap(ctx context.Context, req ctrl.Request, other v1.Widget) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w, other = other, w
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is reassigned at line 48\)$`
}

func (r *R) copyWritten(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	c := w
	c.Status.Ready = true
	if err := r.Status().Update(ctx, &c); err != nil { // want `not moved to the patcher: c is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is copied into c at line 58, where c is passed to client\.SubResourceWriter\.Update at line 60 \(Update is a method of an interface: which implementation runs there is not followed\): it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

func (r *R) derefAssign(ctx context.Context, req ctrl.Request, other *v1.Widget) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	p := &w
	*p = *other
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is passed on or aliased at line 72: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

func (r *R) reGetLoop(ctx context.Context, keys []client.ObjectKey) error {
	var w v1.Widget
	for _, k := range keys {
		if err := r.Get(ctx, k, &w); err != nil {
			return err
		}
		w.Status.Ready = true
		if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

func (r *R) copyBack(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	saved := w
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `not moved to the patcher: the status write of w at line 104 cannot be moved \(w is copied into saved at line 97, where saved is passed on or aliased at line 102: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\), and the writes of w in this function move together\)$`
		return err
	}
	w = saved
	w.Status.Size = 3
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is copied into saved at line 97, where saved is passed on or aliased at line 102: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

func (r *R) deferThenReGetPtr(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 112 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 117:`
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 112 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 117:`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return nil
}

func (r *R) deferClosureReGet(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	defer func() {
		_ = r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	return nil
}

func (r *R) reGetNoDefer(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
