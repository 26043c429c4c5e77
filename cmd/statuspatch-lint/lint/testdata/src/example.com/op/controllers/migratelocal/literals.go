package migratelocal

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// References into the spec put in composite literals, appended to slices
// and converted to unstructured (issue 72): followed, moved when only
// read.

// lws's ComputeRevision: each role's reference put in a literal appended
// to a slice the function made, which only json.Marshal reads; moved.
func (r *Reconciler) revisionRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = len(computeRevision(w.Spec.Roles))
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func computeRevision(roles []v1.Role) string {
	type roleTemplate struct {
		Name    string      `json:"name"`
		Scaling *v1.Scaling `json:"scaling"`
	}
	templates := make([]roleTemplate, 0, len(roles))
	for _, role := range roles {
		templates = append(templates, roleTemplate{Name: role.Name, Scaling: role.Scaling})
	}
	b, err := json.Marshal(templates)
	if err != nil {
		return ""
	}
	return string(b)
}

// Literals handed to json.Marshal as they are (by address, a map's
// value), and the template converted to unstructured; moved.
func (r *Reconciler) literalRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	b, err := json.Marshal(&struct{ T *v1.Template }{T: w.Spec.Template})
	if err != nil {
		return err
	}
	m, err := json.Marshal(map[string]map[string]string{"labels": w.Spec.Labels})
	if err != nil {
		return err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w.Spec.Template)
	if err != nil {
		return err
	}
	w.Status.Size = len(b) + len(m) + len(u)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A literal holding a MarshalJSON of a pointer receiver; stays.
func (r *Reconciler) literalHooked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	b, err := json.Marshal(struct{ H *v1.Hooked }{H: w.Spec.Hooked})
	if err != nil {
		return err
	}
	w.Status.Size = len(b)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 72: w.Spec.Hooked, a reference into the object, is put in a composite literal, and the patcher writes only the status`
}

// Appended to a slice sharing another's array, which is not followed;
// stays.
func (r *Reconciler) appendShared(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	all := make([]*v1.Scaling, len(w.Spec.Roles))
	picked := all[:0]
	for _, role := range w.Spec.Roles {
		picked = append(picked, role.Scaling)
	}
	w.Status.Size = len(all) + len(picked)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 89: w.Spec.Roles is ranged over with elements that hold references into the object, put in role, where, at line 90, role.Scaling, a reference into the object, is passed to the builtin append, and`
}

// The whole object converted: its Hooked's MarshalJSON may change it;
// stays.
func (r *Reconciler) convertHooked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w)
	if err != nil {
		return err
	}
	w.Status.Size = len(u)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to runtime.unstructuredConverter.ToUnstructured at line 103 \(unstructuredConverter.ToUnstructured is of k8s.io/apimachinery/pkg/runtime, whose bodies -fix does not analyse\): it may change more than its status\)$`
}

// Appended to a slice of the spec's array, which writes into it; stays.
func (r *Reconciler) appendIntoSpec(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	first := w.Spec.Roles[:1]
	first = append(first, v1.Role{Name: "extra"})
	w.Status.Size = len(first)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 117: w.Spec.Roles\[:1\], a reference into the object, is assigned to first, where, at line 118, first, a reference into the object, is passed to the builtin append, and`
}
