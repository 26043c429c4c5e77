package reconcilers

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type BackupReconciler struct {
	Client client.Client
}

func (r *BackupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return nil
}
