package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"

	"tutorial.kubebuilder.io/project/controllers"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	rec := &controllers.CronJobReconciler{Scheme: mgr.GetScheme()}
	rec.Client = mgr.GetClient()
	if err = rec.SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
