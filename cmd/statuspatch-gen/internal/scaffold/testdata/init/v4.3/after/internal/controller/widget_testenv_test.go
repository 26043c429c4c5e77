package controller

// Written by statuspatch-gen init as a starting point; it is yours to edit
// (init does not write it again). It runs the reconciler against a real API
// server (testenv: in-process, serving the CRDs only, or envtest's binaries
// when KUBEBUILDER_ASSETS is set) with the CRDs make manifests writes, then
// reads the
// object back from the server.

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv"

	widgetsv1 "example.com/widgets/api/v1"
)

// startStarterWidget starts testenv's in-process API server with the
// project's CRDs (no built-in kinds: a reconciler that reads or creates
// Deployments, ConfigMaps... needs testenv.WithFullAPI()), with a scheme of
// the client-go kinds and the project's, as cmd/main.go registers them, and
// creates a Widget named name.
func startStarterWidget(t *testing.T, name string) (*testenv.Env, *widgetsv1.Widget) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := widgetsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd"), testenv.WithScheme(scheme))
	return env, createStarterWidget(t, env, name)
}

// createStarterWidget creates a Widget named name.
func createStarterWidget(t *testing.T, env *testenv.Env, name string) *widgetsv1.Widget {
	t.Helper()
	obj := &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "", Name: name}}
	// TODO(user): set the spec fields your reconciler needs.
	if err := env.Client.Create(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestWidgetReconcilerOnTestenv(t *testing.T) {
	env, obj := startStarterWidget(t, "starter")
	ctx := t.Context()
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	r := &WidgetReconciler{Client: env.Client}
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
		t.Fatalf("reconcile %s: %v", key, err)
	}
	// A fresh read of what the server stores: env.Client is uncached, and
	// got is a new object, nothing the reconciler holds.
	got := &widgetsv1.Widget{}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatalf("get %s after reconcile: %v", key, err)
	}
	if got.UID != obj.UID {
		t.Fatalf("%s after reconcile has UID %s, want the created object's %s", key, got.UID, obj.UID)
	}
	// TODO(user): assert the status your reconciler writes.
}
