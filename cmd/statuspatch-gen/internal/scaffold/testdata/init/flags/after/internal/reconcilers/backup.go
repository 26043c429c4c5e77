package reconcilers

import (
	"github.com/statuspatch/statuspatch/patcher"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type BackupReconciler struct {
	Client client.Client
}

func (r *BackupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The manager's client carrying the status patchers' defaults: its API
	// reader for fresh reads, and this controller's name as the field owner
	// (statuspatch-gen init; README.md's "Using it").
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("backup"))
	return nil
}
