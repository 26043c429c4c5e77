package explore_test

import (
	"os"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// testenv.Start from this module, on each backend: the embedded server, and
// controller-runtime's envtest (a real kube-apiserver and etcd from
// KUBEBUILDER_ASSETS). Nothing is downloaded: without the binaries the
// envtest case is skipped.
func TestRolloutOnEachBackend(t *testing.T) {
	t.Run("embedded", func(t *testing.T) { rolloutCompletes(t, testenv.BackendEmbedded) })
	t.Run("envtest", func(t *testing.T) {
		if os.Getenv("KUBEBUILDER_ASSETS") == "" {
			t.Skip("KUBEBUILDER_ASSETS is not set: point it at a directory with kube-apiserver and etcd to run this on envtest")
		}
		rolloutCompletes(t, testenv.BackendEnvtest)
	})
}

func rolloutCompletes(t *testing.T, backend testenv.Backend) {
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithBackend(backend),
		testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s))
	ro := &demov1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "envtest", Namespace: "default"},
		Spec: demov1.RolloutSpec{Version: "v1", Steps: 2}}
	if err := env.Client.Create(ctx, ro); err != nil {
		t.Fatal(err)
	}
	r := &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: env.Client, APIReader: env.Client}, patcher.WithFieldOwner(controller.FieldOwner))}
	for range 5 {
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(ro)}); err != nil {
			t.Fatal(err)
		}
	}
	got := &demov1.Rollout{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(ro), got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Plan == nil || len(got.Finalizers) != 1 || got.Status.Phase != demov1.RolloutCompleted {
		t.Fatalf("on %s: plan %+v, finalizers %v, phase %q", backend, got.Status.Plan, got.Finalizers, got.Status.Phase)
	}
}
