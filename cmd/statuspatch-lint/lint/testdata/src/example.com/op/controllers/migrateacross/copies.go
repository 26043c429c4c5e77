package migrateacross

import (
	"context"
	"maps"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// merged copies the labels it is given into a new map (lws's
// mergeMetadata): it reads them.
func merged(user, ours map[string]string) map[string]string {
	m := make(map[string]string, len(user)+len(ours))
	maps.Copy(m, user)
	maps.Copy(m, ours)
	return m
}

// The spec's labels copied into a new map: moved.
func (r *Reconciler) copiesLabels(ctx context.Context, key client.ObjectKey) (map[string]string, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return nil, err
	}
	labels := merged(w.Spec.Labels, map[string]string{"app": "w"})
	w.Status.Ready = len(labels) > 0
	return labels, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The spec's labels copied into: kept.
func (r *Reconciler) copiesInto(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	maps.Copy(w.Spec.Labels, map[string]string{"app": "w"})
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 37: w.Spec.Labels, a reference into the object, is passed to maps.Copy \(Copy is of maps, whose bodies -fix does not analyse\), and the patcher writes only the status`
}
