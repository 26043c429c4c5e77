package migrateifacemethod

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Conditioned is a kind of this module whose status carries conditions.
type Conditioned interface {
	client.Object
	ConditionsRef() *[]metav1.Condition
}

// Manager writes the conditions every reconciler reports (issue 80's
// status.Manager): its methods are exported, so their writes stay, each
// saying how to take the package's StatusPatcher by hand.
type Manager struct {
	Client client.Client
}

// MarkProgressing writes Ready=False at once: the merge patch gets the
// lock, and its reason.
func (m *Manager) MarkProgressing(ctx context.Context, obj Conditioned, reason string) error { // want MarkProgressing:"why"
	base := obj.DeepCopyObject().(client.Object)
	if !meta.SetStatusCondition(obj.ConditionsRef(), metav1.Condition{Type: "Ready", Status: "False", Reason: reason}) {
		return nil
	}
	return m.Client.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: MarkProgressing is a method of Manager \(line 28\) over Conditioned, and MarkProgressing is exported: -fix moves a method over an interface only when it is not, its callers all in its own package; by hand: have it take p patchers\.StatusPatcher in place of obj \(obj := p\.Object\(\)\.\(Conditioned\) .*StatusPatcher\(\), or patchers\.For\(c, obj\)\)$`
}

// MarkDegraded records a failure and writes it with an Update.
func (m Manager) MarkDegraded(ctx context.Context, obj Conditioned, cause error) error { // want MarkDegraded:"why"
	meta.SetStatusCondition(obj.ConditionsRef(), metav1.Condition{Type: "Ready", Status: "False", Reason: "Failed: " + cause.Error()})
	if err := m.Client.Status().Update(ctx, obj); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: MarkDegraded is a method of Manager \(line 37\) over Conditioned, and MarkDegraded is exported: .*patchers\.For\(c, obj\)\)$`
		return fmt.Errorf("mark %s degraded: %w", obj.GetName(), err)
	}
	return nil
}

// Touch is a method over client.Object, no interface of the module: it
// keeps the reason it had.
func (m *Manager) Touch(ctx context.Context, obj client.Object) error { // want Touch:"why"
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Widget: .*\(not moved to the patcher: obj is a client\.Object parameter of Manager\.Touch, `
}

// markSeen is a function over the interface, not a method: the generic
// helper's rule, which keeps it for its caller's call of MarkProgressing.
func markSeen(ctx context.Context, c client.Client, obj Conditioned) error {
	meta.SetStatusCondition(obj.ConditionsRef(), metav1.Condition{Type: "Seen", Status: "True"})
	return c.Status().Update(ctx, obj) // want `^handwritten status write to Widget: .*\(not moved to the patcher: its caller at line \d+ passes w, and w is passed to Manager\.MarkProgressing at line \d+`
}

// MarkReady is called by no reconciler of this package: its object's
// kind is not known, and the reason is the method's all the same.
func (m *Manager) MarkReady(ctx context.Context, obj Conditioned) error { // want MarkReady:"why"
	meta.SetStatusCondition(obj.ConditionsRef(), metav1.Condition{Type: "Ready", Status: "True", Reason: "Done"})
	return m.Client.Status().Update(ctx, obj) // want `^handwritten status write to Conditioned \(an interface\): use the generated status patcher of the object's concrete type \(not moved to the patcher: MarkReady is a method of Manager \(line \d+\) over Conditioned, and MarkReady is exported: .*patchers\.For\(c, obj\)\)$`
}

// WidgetReconciler calls the first four with its Widget.
type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	sm := &Manager{Client: r.Client}
	if err := sm.MarkProgressing(ctx, w, "Working"); err != nil {
		return err
	}
	if err := markSeen(ctx, r.Client, w); err != nil {
		return Manager{Client: r.Client}.MarkDegraded(ctx, w, err)
	}
	return sm.Touch(ctx, w)
}
