// Package controller holds the reconciler as a kubebuilder user wrote it,
// before statuspatch: a deferred Update of a Degraded condition when
// Reconcile fails (kubebuilder's tutorial's named error), a blind merge
// patch, a helper's patch with the optimistic lock, then (markReady) an Update, kubebuilder's re-fetch and
// a blind client.Merge patch, then (summarize, widget_summary.go) a
// server-side apply, then (widget_phase.go) an exported helper's Update
// (internal/status's MarkFailed) and a server-side apply of an
// unstructured object. Becoming Ready is its decision with a side effect
// (readyDecisions, a metric the manager serves): a decision made twice for
// one widget, on a read that missed the first, counts twice.
package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	widgetsv1 "example.com/widgets/api/v1"
)

// readyDecisions counts the widgets the reconciler decided were Ready.
var readyDecisions = prometheus.NewCounter(prometheus.CounterOpts{
	Name: "widget_ready_decisions_total",
	Help: "Widgets the reconciler decided were Ready.",
})

func init() {
	metrics.Registry.MustRegister(readyDecisions)
}

// WidgetReconciler names one part per unit of spec.size in the status.
type WidgetReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets/status,verbs=get;update;patch

// Reconcile writes the parts list, then the generation it describes; when
// it fails, the Degraded condition says why.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &widgetsv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Degraded", Status: metav1.ConditionTrue, Reason: "ReconcileFailed", Message: retErr.Error()})
		if err := r.Client.Status().Update(ctx, w); err != nil {
			retErr = errors.Join(retErr, err)
		}
	}()
	base := w.DeepCopy()
	w.Status.Parts = nil
	for i := range w.Spec.Size {
		w.Status.Parts = append(w.Status.Parts, fmt.Sprintf("%s-%d", w.Name, i))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.markObserved(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.markReady(ctx, req.NamespacedName); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.summarize(ctx, req.NamespacedName); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.checkSize(ctx, req.NamespacedName); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.phase(ctx, req.NamespacedName)
}

// markReady sets Ready on a fresh read, then re-fetches before updating
// the status again, as kubebuilder's scaffolds do.
func (r *WidgetReconciler) markReady(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	if !meta.IsStatusConditionTrue(w.Status.Conditions, "Ready") {
		readyDecisions.Inc()
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "PartsNamed"})
	if err := r.Client.Status().Update(ctx, w); err != nil {
		return err
	}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.Generation
	return r.Client.Status().Patch(ctx, w, client.Merge)
}

// markObserved records the generation the status describes.
func (r *WidgetReconciler) markObserved(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return r.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}
