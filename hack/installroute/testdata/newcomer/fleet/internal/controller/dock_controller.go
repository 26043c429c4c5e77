package controller

import (
	"context"
	"fmt"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	widgetsv1 "example.com/widgets/api/v1"
)

// berthTokens hands out the berths' tokens.
var berthTokens atomic.Int64

// DockReconciler gives each Berth of a Dock (labelled dock=<the dock's
// name>) a token: the parent writes its children's status.
type DockReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler: a Berth's change reconciles
// its Dock.
func (r *DockReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Dock{}).
		Watches(&widgetsv1.Berth{}, handler.EnqueueRequestsFromMapFunc(dockOf)).
		Complete(r)
}

// dockOf is the Dock of a Berth.
func dockOf(_ context.Context, o client.Object) []reconcile.Request {
	dock := o.GetLabels()["dock"]
	if dock == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: dock}}}
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=docks,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=berths,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=berths/status,verbs=get;update;patch

// Reconcile hands out a token to each of the dock's berths that has none.
func (r *DockReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	dock := &widgetsv1.Dock{}
	if err := r.Client.Get(ctx, req.NamespacedName, dock); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var berths widgetsv1.BerthList
	if err := r.Client.List(ctx, &berths, client.InNamespace(dock.Namespace), client.MatchingLabels{"dock": dock.Name}); err != nil {
		return ctrl.Result{}, err
	}
	for i := range berths.Items {
		berth := &berths.Items[i]
		if berth.Status.Token != "" {
			continue
		}
		berth.Status.Token = fmt.Sprintf("B-%d", berthTokens.Add(1))
		if err := r.Client.Status().Update(ctx, berth); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}
