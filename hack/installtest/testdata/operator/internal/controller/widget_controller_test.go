package controller

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv"

	widgetsv1 "example.com/widgets/api/v1"
)

func TestReconcileWritesStatus(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := widgetsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	// config/crd as kubebuilder scaffolds it: kustomization.yaml beside bases/.
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd"), testenv.WithScheme(scheme))
	ctx := t.Context()
	w := &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "w"}, Spec: widgetsv1.WidgetSpec{Size: 2}}
	if err := env.Client.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	r := &WidgetReconciler{Client: env.Client}
	key := types.NamespacedName{Namespace: "default", Name: "w"}
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
		t.Fatal(err)
	}
	got := &widgetsv1.Widget{}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Parts) != 2 || got.Status.ObservedGeneration != got.Generation || len(got.Status.Conditions) != 1 {
		t.Fatalf("status = %+v, want 2 parts, observedGeneration %d and Ready", got.Status, got.Generation)
	}
}
