package migratesubcache

import (
	"github.com/statuspatch/statuspatch/patcher"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Audit holds its own dockReconciler, on the manager's plain client: its
// field audit is not Reconciler's docks, so dockReconciler's write, made
// with r.docks.c, gets no note (review R4 of s104: the note named this
// line, matching the chain by its last field c only).
type Audit struct {
	client.Client
	audit dockReconciler
}

func (a *Audit) SetupWithManager(mgr patcher.Manager) error {
	a.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("audit"))
	a.audit.c = mgr.GetClient()
	return nil
}
