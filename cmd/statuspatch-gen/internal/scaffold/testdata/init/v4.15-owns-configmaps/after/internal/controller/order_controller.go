package controller

import (
	"context"
	"fmt"

	"github.com/statuspatch/statuspatch/patcher"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	shopv1 "example.com/shop/api/v1"
)

// OrderReconciler reconciles a Order object
type OrderReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=shop.example.com,resources=orders,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=shop.example.com,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=shop.example.com,resources=orders/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch;create

// Reconcile creates one ConfigMap per item of the Order and reports them in
// its status, as kubebuilder's tutorial creates a Deployment.
func (r *OrderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = logf.FromContext(ctx)

	order := &shopv1.Order{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for i := range order.Spec.Items {
		cm, err := r.configMapFor(order, i)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, cm); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, fmt.Errorf("creating item %s: %w", cm.Name, err)
		}
	}
	var items corev1.ConfigMapList
	if err := r.List(ctx, &items, client.InNamespace(order.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	order.Status.ReadyItems = int32(len(items.Items))
	return ctrl.Result{}, r.Status().Update(ctx, order)
}

// configMapFor is the ConfigMap of the order's item i.
func (r *OrderReconciler) configMapFor(order *shopv1.Order, i int32) (*corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: order.Namespace, Name: fmt.Sprintf("%s-item-%d", order.Name, i)}}
	return cm, controllerutil.SetControllerReference(order, cm, r.Scheme)
}

// SetupWithManager sets up the controller with the Manager.
func (r *OrderReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The manager's client carrying the status patchers' defaults: its API
	// reader for fresh reads, and this controller's name as the field owner
	// (statuspatch-gen init; README.md's "Using it").
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("order"))
	return ctrl.NewControllerManagedBy(mgr).
		For(&shopv1.Order{}).
		Owns(&corev1.ConfigMap{}).
		Named("order").
		Complete(r)
}
