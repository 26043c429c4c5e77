package advvalue

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) rangeValue(ctx context.Context, items []v1.Widget) error {
	for _, item := range items {
		item.Status.Ready = true
		if err := r.Status().Update(ctx, &item); err != nil { // want `not moved to the patcher: item is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
			return err
		}
	}
	return nil
}

func (r *R) rangeIndexCopy(ctx context.Context, items []v1.Widget) error {
	for i := range items {
		x := items[i]
		x.Status.Ready = true
		if err := r.Status().Update(ctx, &x); err != nil { // want `not moved to the patcher: x is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
			return err
		}
	}
	return nil
}

func (r *R) copyAfter(ctx context.Context, req ctrl.Request) (v1.Widget, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return w, err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return w, err
	}
	out := w
	return out, nil
}

func (r *R) goroutine(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	done := make(chan struct{})
	go func(p *v1.Widget) {
		p.Status.Size = 3
		close(done)
	}(&w)
	<-done
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

type holder struct{ w *v1.Widget }

func (r *R) stored(ctx context.Context, req ctrl.Request, h *holder) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	h.w = &w
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is passed on or aliased at line 71: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

func (r *R) inMap(ctx context.Context, req ctrl.Request, m map[string]*v1.Widget) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	m["x"] = &w
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is passed on or aliased at line 81: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

func (r *R) returned(ctx context.Context, req ctrl.Request) (*v1.Widget, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return nil, err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return nil, err
	}
	return &w, nil
}

func (r *R) get(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want get:"statusOnly\\[2\\]"
	return r.Get(ctx, key, w)
}

func (r *R) getInHelper(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) namedResult(ctx context.Context, req ctrl.Request) (w v1.Widget, err error) {
	if err = r.Get(ctx, req.NamespacedName, &w); err != nil {
		return
	}
	w.Status.Ready = true
	err = r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	return
}

func (r *R) param(ctx context.Context, w v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is a parameter of param: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
}

func (r *R) paramGet(ctx context.Context, w v1.Widget) error {
	if err := r.Get(ctx, client.ObjectKeyFromObject(&w), &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) twoValues(ctx context.Context, req ctrl.Request, other client.ObjectKey) error {
	var a, b v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &a); err != nil {
		return err
	}
	if err := r.Get(ctx, other, &b); err != nil {
		return err
	}
	a.Status.Ready = true
	b.Status.Ready = true
	if err := r.Status().Update(ctx, &a); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Update(ctx, &b) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) deferCapture(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	defer func(x v1.Widget) {
		_ = x
	}(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) reGetOtherKey(ctx context.Context, req ctrl.Request, other client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, other, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) assignedBetween(ctx context.Context, req ctrl.Request, other v1.Widget) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `not moved to the patcher: the status write of w at line 188 cannot be moved \(w is reassigned at line 186\), and the writes of w in this function move together\)$`
		return err
	}
	w = other
	w.Status.Size = 2
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is reassigned at line 186\)$`
}

func (r *R) pointerAlias(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	p := &w
	w.Status.Ready = true
	if err := r.Status().Update(ctx, &w); err != nil { // want `not moved to the patcher: w is passed on or aliased at line 196: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
		return err
	}
	p.Status.Size = 2
	return r.Status().Update(ctx, p) // want `not moved to the patcher: p is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
}

// fetch reads the widget and hands it back: its Get is the caller's read.
func (r *R) fetch(ctx context.Context, key client.ObjectKey) (*v1.Widget, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return nil, err
	}
	if w.Name != key.Name {
		return nil, nil
	}
	return w, nil
}

func (r *R) fetchInHelper(ctx context.Context, req ctrl.Request) error {
	w, err := r.fetch(ctx, req.NamespacedName)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// defaulted reads the widget and sets a default after its Get.
func (r *R) defaulted(ctx context.Context, key client.ObjectKey) (*v1.Widget, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return nil, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	return w, nil
}

func (r *R) defaultedInHelper(ctx context.Context, req ctrl.Request) error {
	w, err := r.defaulted(ctx, req.NamespacedName)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is read with Get in R\.defaulted \(line 229\), called at line 239, but R\.defaulted changes w\.Status\.Size at line 233: the object the call hands back may not be the Get's, and -fix makes no patcher there; make NewWidgetStatusPatcher where its status changes start and call its Flush\(ctx\) here\)$`
}

// cached hands back a widget of a cache shared by the reconciles.
func (r *R) cached(ctx context.Context, key client.ObjectKey, seen map[client.ObjectKey]*v1.Widget) (*v1.Widget, error) {
	if w, ok := seen[key]; ok {
		return w, nil
	}
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return nil, err
	}
	return w, nil
}

func (r *R) cachedInHelper(ctx context.Context, req ctrl.Request, seen map[client.ObjectKey]*v1.Widget) error {
	w, err := r.cached(ctx, req.NamespacedName, seen)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is read with Get in R\.cached \(line 253\), called at line 260, but R\.cached may return w at line 250 instead, which its Get does not read: .*\)$`
}

// load reads into the widget only when it has no name yet.
func (r *R) load(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want load:"statusOnly\\[2\\]"
	if w.Name != "" {
		return nil
	}
	return r.Get(ctx, key, w)
}

func (r *R) loadInHelper(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.load(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `not moved to the patcher: w is read with Get in R\.load \(line 273\), called at line 278, but R\.load may return at line 271, before its Get: .*\)$`
}
