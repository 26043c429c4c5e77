package migratelocal

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// An address taken into the object that reaches only readers which copy
// what they are given is read (lws's GetPVCApplyConfiguration puts
// &pvc.Spec.Resources.Requests in an apply configuration that
// ToUnstructured converts); one written through, handed on or stored is
// a change.

// labelsConfig has an apply configuration's shape: pointers to values.
type labelsConfig struct {
	Name   *string            `json:"name,omitempty"`
	Labels *map[string]string `json:"labels,omitempty"`
}

// Addresses assigned into a configuration's fields, which ToUnstructured
// converts; in a literal json.Marshal encodes; in a local it encodes:
// moved.
func (r *Reconciler) addressConverted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var cfg labelsConfig
	cfg.Name = &w.Name
	cfg.Labels = &w.Spec.Labels
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&cfg)
	if err != nil {
		return err
	}
	b, err := json.Marshal(labelsConfig{Labels: &w.Spec.Labels})
	if err != nil {
		return err
	}
	surge := &w.Spec.MaxSurge
	m, err := json.Marshal(surge)
	if err != nil {
		return err
	}
	w.Status.Size = len(u) + len(b) + len(m)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The configuration's address written through: stays.
func (r *Reconciler) addressWritten(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var cfg labelsConfig
	cfg.Labels = &w.Spec.Labels
	(*cfg.Labels)["converted"] = "true"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: the address of w.Spec.Labels is taken at line 59, and the patcher writes only the status`
}

// sink takes what addressHanded gives it; it may be any function.
var sink func(any)

// The configuration handed to a function value: stays.
func (r *Reconciler) addressHanded(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var cfg labelsConfig
	cfg.Labels = &w.Spec.Labels
	sink(&cfg)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: the address of w.Spec.Labels is taken at line 75, and the patcher writes only the status`
}

var saved labelsConfig

// The configuration stored in a package variable: stays.
func (r *Reconciler) addressStored(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var cfg labelsConfig
	cfg.Labels = &w.Spec.Labels
	saved = cfg
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: the address of w.Spec.Labels is taken at line 90, and the patcher writes only the status`
}

// labelsOf fills a named result, which the bare return hands on.
func labelsOf(w *v1.Widget) (cfg labelsConfig) {
	cfg.Labels = &w.Spec.Labels
	return
}

// The configuration returned by a named result: stays.
func (r *Reconciler) addressReturned(ctx context.Context, key client.ObjectKey) (labelsConfig, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return labelsConfig{}, err
	}
	cfg := labelsOf(w)
	w.Status.Ready = true
	return cfg, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to labelsOf at line 108, where the address of w.Spec.Labels is taken at line 98, and the patcher writes only the status`
}
