package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"tutorial.kubebuilder.io/project/controllers"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	// Every write of this controller goes to the tenant namespace, under its own field owner.
	if err = (&controllers.CronJobReconciler{
		Client: client.WithFieldOwner(mgr.GetClient(), "tenant-cronjob"),
		Scheme: mgr.GetScheme(),
	}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
