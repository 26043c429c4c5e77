package controller

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestExploreConfigMaps explores the reconciler on the API server envtest
// starts, in a process of its own, as the suite does.
func TestExploreConfigMaps(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Skip("KUBEBUILDER_ASSETS is not set: envtest has no kube-apiserver")
	}
	testEnv := &envtest.Environment{} // the suite's, with its CRDDirectoryPaths
	cfg, err := testEnv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = testEnv.Stop() })
	k8sClient, err := client.New(cfg, client.Options{Scheme: scheme.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	explore.Check(t, explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			return (&ConfigMapReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
		},
		Objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "demo"}}},
	}, explore.Options{Backend: explore.Server(explore.Remote(k8sClient))})
}
