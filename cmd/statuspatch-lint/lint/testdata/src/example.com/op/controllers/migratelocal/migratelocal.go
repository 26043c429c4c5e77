// Package migratelocal: a reference into the object put in a local (a
// define, a range's element) is followed by the rules of a reference into
// the object, and json.Marshal and yaml.Marshal read what they encode
// unless a type in it has a MarshalJSON of a pointer receiver. -fix moves
// the writes whose locals are only read, and keeps the others, with where.
package migratelocal

import (
	"context"
	"encoding/json"
	"time"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

type Reconciler struct {
	client.Client
}

// spark-operator's GetDriverPodName: the pointer in a local, only *name
// read; moved.
func (r *Reconciler) pointerRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	name := w.Spec.PodName
	if name != nil && *name != "" {
		w.Status.Ready = true
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The spec changed through the local; stays.
func (r *Reconciler) pointerWrite(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	name := w.Spec.PodName
	*name = "driver"
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 42: w.Spec.PodName, a reference into the object, is assigned to name, where \*name is changed at line 43, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A local of a local, handed to a builtin that changes it; stays.
func (r *Reconciler) localOfLocal(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var l = w.Spec.Labels
	m := l
	delete(m, "stale")
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 54: w.Spec.Labels, a reference into the object, is assigned to l, where, at line 55, l, a reference into the object, is assigned to m, where, at line 56, m, a reference into the object, is passed to the builtin delete, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The local itself assigned again changes nothing in the object; moved.
func (r *Reconciler) localReassigned(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	name := w.Spec.PodName
	if name == nil {
		def := "default"
		name = &def
	}
	w.Status.Ready = *name != ""
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// lws's isExternal: the roles ranged over by value, their fields only
// read (Scaling a pointer); moved.
func (r *Reconciler) rangeRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for _, role := range w.Spec.Roles {
		if role.Name == "prefill" && role.Scaling != nil && role.Scaling.Mode == "external" {
			w.Status.Ready = true
		}
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A role's Scaling changed through the element, which shares it; stays.
func (r *Reconciler) rangeWrite(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for _, role := range w.Spec.Roles {
		if role.Scaling != nil {
			role.Scaling.Mode = "internal"
		}
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 97: w.Spec.Roles is ranged over with elements that hold references into the object, put in role, where role.Scaling.Mode is changed at line 99, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A role's element appended by reference to a slice changed through: kept.
func (r *Reconciler) rangeKept(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var kept []*v1.Scaling
	for _, role := range w.Spec.Roles {
		kept = append(kept, role.Scaling)
	}
	kept[0].Mode = "seen"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 113: w.Spec.Roles is ranged over with elements that hold references into the object, put in role, where, at line 114, role.Scaling, a reference into the object, is appended to kept, where kept\[0\].Mode is changed at line 116, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// spark-operator's SparkConnect: the template encoded, only read; moved.
func (r *Reconciler) marshalRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	b, err := yaml.Marshal(w.Spec.Template)
	if err != nil {
		return err
	}
	j, err := json.Marshal(w.Spec.Labels)
	if err != nil {
		return err
	}
	w.Status.Size = len(b) + len(j)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A MarshalJSON of a pointer receiver, which encoding/json calls on the
// object's value, changes it; stays.
func (r *Reconciler) marshalHooked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	b, err := json.Marshal(w.Spec.Hooked)
	if err != nil {
		return err
	}
	w.Status.Size = len(b)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 145: w.Spec.Hooked, a reference into the object, is passed to json.Marshal \(Marshal is of encoding/json, whose bodies -fix does not analyse\), and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A reference handed to a function of the package that only reads it:
// followed into its parameter; moved.
func (r *Reconciler) paramRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = labelCount(w.Spec.Labels)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func labelCount(l map[string]string) int {
	n := 0
	for k := range l {
		if k != "" {
			n++
		}
	}
	return n
}

// One that deletes from it; stays.
func (r *Reconciler) paramWrite(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	dropStale(w.Spec.Labels)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 180: w.Spec.Labels, a reference into the object, is passed to dropStale, where, at line 185, l, a reference into the object, is passed to the builtin delete, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func dropStale(l map[string]string) { delete(l, "stale") }

// A time.Time is a value: handed to time.Since, it is read; moved.
func (r *Reconciler) timeRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = time.Since(w.Spec.Template.Started) > time.Minute
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A range over a function of the spec calls it, whatever it yields; stays.
func (r *Reconciler) rangeFunc(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for name := range w.Spec.Each {
		w.Status.Ready = name != ""
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 203: w.Spec.Each is ranged over: the function is called, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}
