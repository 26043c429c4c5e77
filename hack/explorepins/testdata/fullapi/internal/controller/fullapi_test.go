package controller

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestExploreFullAPI explores the reconciler on testenv's full API, as
// docs/explore-your-operator.md's "Starting the server" does.
func TestExploreFullAPI(t *testing.T) {
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		t.Skipf("skipping: the full API needs kube-apiserver: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithFullAPI(), testenv.WithScheme(scheme))
	explore.Check(t, explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			return (&ConfigMapReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
		},
		Objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "demo"}}},
	}, explore.Options{Backend: explore.Server(env)})
}
