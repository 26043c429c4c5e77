package explore

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
)

// ContextOf returns the context of the operator's process whose Setup got
// mgr: the explorer cancels it when it ends that process (a crash
// restart, a leader change, the schedule's end), as the signal context
// main.go makes with ctrl.SetupSignalHandler ends at exit. Pass it where
// the operator's SetupWithManager takes a context:
//
//	Setup: func(mgr ctrl.Manager) error {
//		return (&Reconciler{Client: mgr.GetClient()}).SetupWithManager(explore.ContextOf(mgr), mgr)
//	},
//
// What Setup starts with it (a cache's expiry goroutine, a poller) then
// stops with the process, where one started with the test's context would
// outlive it: one more for every schedule and restart. For a manager the
// explorer did not make it returns context.Background().
func ContextOf(mgr manager.Manager) context.Context {
	if ctx, ok := recmgr.ContextOf(mgr); ok {
		return ctx
	}
	return context.Background()
}
