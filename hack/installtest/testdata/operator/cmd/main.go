// Command main runs the install test's operator, as kubebuilder scaffolds
// cmd/main.go: a manager with the client-go and widgets schemes. It exists
// before statuspatch is installed, so the pinned module's go.mod and go.sum
// are an operator's (controller-runtime, client-go) from the start.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"

	widgetsv1 "example.com/widgets/api/v1"
)

func main() {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(widgetsv1.AddToScheme(scheme))
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		ctrl.Log.Error(err, "unable to create the manager")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		ctrl.Log.Error(err, "the manager stopped")
		os.Exit(1)
	}
}
