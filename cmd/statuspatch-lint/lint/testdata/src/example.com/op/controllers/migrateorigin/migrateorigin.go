// Package migrateorigin: where a written object came from decides its
// move. A value of a map or slice reached through a parameter (lws's
// ScalerManager.WriteStatus over the map of List items Reconcile
// returns), or a parameter whose callers pass List items, is a cached
// copy the model cannot show fresh: its decision goes into Retry, never
// a plain Flush. A status patch whose base is taken before another write
// of the same object on its path (karpenter's nodeclaim lifecycle: a
// metadata Patch, then the status Patch from the same base) stays, and
// gets no lock: the first write moves the resourceVersion the lock
// would send.
package migrateorigin

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ScalerManager struct {
	client client.Client
}

// widgetList is what a List fills: items the cache holds.
type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

// collect returns the List's items by role, as lws's Reconcile does.
func (m *ScalerManager) collect(ctx context.Context) (map[string]*v1.Widget, error) {
	list := &widgetList{}
	if err := m.client.List(ctx, list); err != nil {
		return nil, err
	}
	byRole := map[string]*v1.Widget{}
	for i := range list.Items {
		byRole[list.Items[i].Name] = &list.Items[i]
	}
	return byRole, nil
}

// lws's WriteStatus: the copy of a map value, patched from the value.
func (m *ScalerManager) WriteStatus(ctx context.Context, scalers map[string]*v1.Widget, observed map[string]int) error { // want WriteStatus:`^readOnly\[2\]$`
	for role, s := range scalers {
		desired := s.DeepCopy()
		desired.Status.Size = observed[role]
		desired.Status.Ready = true
		if err := m.client.Status().Patch(ctx, desired, client.MergeFrom(s)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return fmt.Errorf("patch scaler %s status: %w", s.Name, err)
		}
	}
	return nil
}

// The same through an index of the map.
func (m *ScalerManager) writeOne(ctx context.Context, scalers map[string]*v1.Widget, role string) error {
	s := scalers[role]
	base := s.DeepCopy()
	s.Status.Ready = true
	return m.client.Status().Patch(ctx, s, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A parameter whose one caller passes a List item.
func (m *ScalerManager) markReady(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return m.client.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (m *ScalerManager) markAll(ctx context.Context) error {
	list := &widgetList{}
	if err := m.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		if err := m.markReady(ctx, &list.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

type LifecycleController struct {
	kubeClient client.Client
}

// karpenter's nodeclaim lifecycle: the metadata Patch at the first write
// moves the resourceVersion of the base the status Patch is built from.
func (c *LifecycleController) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Labels = map[string]string{"reconciled": "true"}
	w.Status.Ready = true
	statusCopy := w.DeepCopy()
	if err := c.kubeClient.Patch(ctx, w, client.MergeFrom(stored)); err != nil {
		return client.IgnoreNotFound(err)
	}
	if err := c.kubeClient.Status().Patch(ctx, statusCopy, client.MergeFrom(stored)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*\) \(no fix: the base stored is taken at line 94, before the write of w at line 98, which moves the resourceVersion a lock would send: locked, this patch would conflict whenever both change; take the base after that write, or write the status first\)$`
		return client.IgnoreNotFound(err)
	}
	return nil
}
