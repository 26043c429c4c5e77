package controller

import (
	"context"
	"fmt"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// anchorTokens hands out the anchors' tokens.
var anchorTokens atomic.Int64

// AnchorReconciler hands each Anchor to a sub-reconciler holding its own
// client, which gives it a token.
type AnchorReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *AnchorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Anchor{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=anchors,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=anchors/status,verbs=get;update;patch

// Reconcile reads the anchor and runs the sub-reconciler on it.
func (r *AnchorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	anchor := &widgetsv1.Anchor{}
	if err := r.Client.Get(ctx, req.NamespacedName, anchor); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, (&anchorTokenizer{c: r.Client}).reconcile(ctx, anchor)
}

// anchorTokenizer is a sub-reconciler with its own client.
type anchorTokenizer struct {
	c client.Client
}

// reconcile hands out the anchor's token once.
func (s *anchorTokenizer) reconcile(ctx context.Context, anchor *widgetsv1.Anchor) error {
	if anchor.Status.Token == "" {
		anchor.Status.Token = fmt.Sprintf("A-%d", anchorTokens.Add(1))
	}
	return s.c.Status().Update(ctx, anchor)
}
