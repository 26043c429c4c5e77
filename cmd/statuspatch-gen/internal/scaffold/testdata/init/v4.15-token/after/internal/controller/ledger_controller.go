/*
Copyright 2026 The Kubernetes authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	"context"

	"github.com/statuspatch/statuspatch/patcher"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	ledgersv1 "example.com/ledgers/api/v1"
)

// LedgerReconciler reconciles a Ledger object
type LedgerReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=ledgers.example.com,resources=ledgers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=ledgers.example.com,resources=ledgers/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=ledgers.example.com,resources=ledgers/finalizers,verbs=update

// Reconcile is part of the main kubernetes reconciliation loop which aims to
// move the current state of the cluster closer to the desired state.
// TODO(user): Modify the Reconcile function to compare the state specified by
// the Ledger object against the actual cluster state, and then
// perform operations to make the cluster state reflect the state specified by
// the user.
//
// For more details, check Reconcile and its Result here:
// - https://pkg.go.dev/sigs.k8s.io/controller-runtime@v0.24.1/pkg/reconcile
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = logf.FromContext(ctx)

	// TODO(user): your logic here

	return ctrl.Result{}, nil
}

// SetupWithManager sets up the controller with the Manager.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The manager's client carrying the status patchers' defaults: its API
	// reader for fresh reads, and this controller's name as the field owner
	// (statuspatch-gen init; README.md's "Using it").
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("ledger"))
	return ctrl.NewControllerManagedBy(mgr).
		For(&ledgersv1.Ledger{}).
		Named("ledger").
		Complete(r)
}
