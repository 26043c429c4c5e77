// Package migrateheldstruct: the object put in a field of a struct of a
// concrete type (lws's disaggregatedsetutils.CreateParams{DisaggregatedSet: ds, ...})
// handed to a method of the package that only reads it there
// (LeaderWorkerSetManager.Create): the holder is followed into the
// callee, where each use of its field is a use of the object. A callee
// that changes the object beyond its status there, keeps the holder, hands
// it on or calls a method of it keeps the write, naming the line. A
// function of another package is judged by its fact (holdutil).
package migrateheldstruct

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"example.com/op/holdutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type manager struct {
	client client.Client
	last   *holdutil.CreateParams
}

// Create reads the object its params hold: its name, namespace,
// generation and spec, an owner check (lws's LeaderWorkerSetManager.Create).
func (m *manager) Create(ctx context.Context, params holdutil.CreateParams) error { // want Create:`^heldStruct1:Widget$`
	child := &v1.Widget{
		ObjectMeta: metav1.ObjectMeta{
			Name:       fmt.Sprintf("%s-%s", params.Widget.Name, params.Role),
			Namespace:  params.Widget.Namespace,
			Labels:     params.Labels,
			Generation: params.Widget.Generation,
		},
		Spec: v1.WidgetSpec{Size: params.Widget.Spec.Size * params.Replicas},
	}
	if err := m.client.Create(ctx, child); err != nil {
		existing := &v1.Widget{}
		if getErr := m.client.Get(ctx, client.ObjectKeyFromObject(child), existing); getErr != nil {
			return getErr
		}
		if !metav1.IsControlledBy(existing, params.Widget) {
			return fmt.Errorf("widget %s is not controlled by %s", existing.Name, params.Widget.Name)
		}
	}
	return nil
}

// CreatePtr reads it through a pointer to the holder, and hands the
// holder on to Create.
func (m *manager) CreatePtr(ctx context.Context, params *holdutil.CreateParams) error { // want CreatePtr:`^heldStruct1:Widget$`
	if params == nil || params.Widget == nil {
		return nil
	}
	return m.Create(ctx, *params)
}

// Resize changes the object's spec there.
func (m *manager) Resize(params holdutil.CreateParams) { // want Resize:`^heldStruct0:Widget~$`
	params.Widget.Spec.Size = params.Replicas
}

// Keep keeps the holder.
func (m *manager) Keep(params *holdutil.CreateParams) { // want Keep:`^heldStruct0:Widget\?$`
	m.last = params
}

type Reconciler struct {
	client.Client
	mgr *manager
}

// Reconcile hands the Widget to Create in a literal: moved.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensure(ctx, w, "leader"); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// ensure is lws's ensureNewLWSExists.
func (r *Reconciler) ensure(ctx context.Context, w *v1.Widget, role string) error { // want ensure:`^statusOnly\[1\]$`
	return r.mgr.Create(ctx, holdutil.CreateParams{Widget: w, Role: role, Replicas: 1})
}

// Local puts the holder in a local, by address, first: moved.
func (r *Reconciler) Local(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	params := &holdutil.CreateParams{Widget: w, Role: "worker"}
	params.Replicas = 2
	if err := r.mgr.CreatePtr(ctx, params); err != nil {
		return err
	}
	w.Status.Size = params.Replicas
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Resized: the callee changes the spec through the holder: kept.
func (r *Reconciler) Resized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	r.mgr.Resize(holdutil.CreateParams{Widget: w, Replicas: 3})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is put in the holdutil.CreateParams made at line \d+, and it is passed to manager.Resize at line \d+, where params.Widget.Spec is changed at line \d+: .*\)$`
}

// Kept: the callee keeps the holder in a field of the manager.
func (r *Reconciler) Kept(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	r.mgr.Keep(&holdutil.CreateParams{Widget: w})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is put in the holdutil.CreateParams made at line \d+, and it is passed to manager.Keep at line \d+, where params is handed on at line \d+\)$`
}

// Sent: the holder goes to a function value.
func (r *Reconciler) Sent(ctx context.Context, key client.ObjectKey, send func(holdutil.CreateParams)) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	send(holdutil.CreateParams{Widget: w})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is put in the holdutil.CreateParams made at line \d+, and it is passed to the function value send at line \d+, which -fix does not follow with what it holds\)$`
}

// Described: a function of another package reads what the holder holds,
// by its fact: moved.
func (r *Reconciler) Described(ctx context.Context, key client.ObjectKey) (string, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return "", err
	}
	name := holdutil.Describe(holdutil.CreateParams{Widget: w, Role: "leader"})
	w.Status.Ready = true
	return name, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Renamed: a function of another package renames it, by its fact: kept.
func (r *Reconciler) Renamed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	holdutil.Rename(&holdutil.CreateParams{Widget: w, Role: "leader"})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is put in the holdutil.CreateParams made at line \d+, and it is passed to holdutil.Rename at line \d+, where p.Widget.Name is changed at holdutil.go:\d+: .*\)$`
}

// Grown: it changes its spec, which this package's checks keep (and
// a write by default leaves unsent).
func (r *Reconciler) Grown(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	holdutil.Grow(&holdutil.CreateParams{Widget: w, Replicas: 2})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is put in the holdutil.CreateParams made at line \d+, and it is passed to holdutil.Grow at line \d+, where p.Widget.Spec is changed at holdutil.go:\d+: .*\)$`
}
