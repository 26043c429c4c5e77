package controller

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	// The namespace of the scenario's objects: envtest's server has only
	// default, kube-system and kube-public, and the explorer creates no
	// namespace.
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "demo"}}
	if err := k8sClient.Create(t.Context(), ns); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	explore.Check(t, explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			return (&ConfigMapReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
		},
		Objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "demo"}}},
	}, explore.Options{Backend: explore.Server(explore.Remote(k8sClient))})
}
