package controller

import (
	"context"

	"github.com/statuspatch/statuspatch/patcher"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	shopv1 "example.com/shop/api/v1"
)

// OrderReconciler reconciles a Order object
type OrderReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder record.EventRecorder
}

// +kubebuilder:rbac:groups=shop.example.com,resources=orders,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=shop.example.com,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=shop.example.com,resources=orders/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch

// Reconcile marks the Order ready. Its own kind only: an event type, a
// reference field of core/v1 and an RBAC marker for Events are no calls
// on a built-in kind.
func (r *OrderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = logf.FromContext(ctx)

	order := &shopv1.Order{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta.SetStatusCondition(&order.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Ready"})
	if err := r.Status().Update(ctx, order); err != nil {
		return ctrl.Result{}, err
	}
	if r.Recorder != nil {
		r.Recorder.Event(order, corev1.EventTypeNormal, "Ready", "the order is ready")
	}
	return ctrl.Result{}, nil
}

// SetupWithManager sets up the controller with the Manager.
func (r *OrderReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The manager's client carrying the status patchers' defaults: its API
	// reader for fresh reads, and this controller's name as the field owner
	// (statuspatch-gen init; README.md's "Using it").
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("order"))
	return ctrl.NewControllerManagedBy(mgr).
		For(&shopv1.Order{}).
		Named("order").
		Complete(r)
}
