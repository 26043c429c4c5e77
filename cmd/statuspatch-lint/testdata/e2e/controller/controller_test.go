package controller

import (
	"context"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/testenv"
)

// The reconciler's status writes land on the real API server: what the
// server stores is read back.
func TestReconcileWritesStatus(t *testing.T) {
	crds := os.Getenv("LINTFIX_E2E_CRDS")
	if crds == "" {
		t.Fatal("LINTFIX_E2E_CRDS must name examples/config/crd/bases")
	}
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory(crds), testenv.WithScheme(s))
	ctx := context.Background()
	ro := &v1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:       v1alpha1.RolloutSpec{Version: "v2", Steps: 3},
	}
	if err := env.Client.Create(ctx, ro); err != nil {
		t.Fatal(err)
	}
	r := &RolloutReconciler{Client: env.Client}
	if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(ro)}); err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	got := &v1alpha1.Rollout{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(ro), got); err != nil {
		t.Fatal(err)
	}
	st := got.Status
	planned, ready := meta.FindStatusCondition(st.Conditions, "Planned"), meta.FindStatusCondition(st.Conditions, "Ready")
	if st.Phase != v1alpha1.RolloutCompleted || st.CompletedSteps != 4 || st.ObservedGeneration != got.Generation ||
		len(st.Conditions) != 2 || planned == nil || planned.Message != "planning v2" || ready == nil || ready.Message != "ready v2" {
		t.Fatalf("stored status = %+v, want Completed, 4 steps, generation %d, the Planned and Ready conditions", st, got.Generation)
	}
	// The plan was applied (plan.go) under the planner's field owner.
	if st.Plan == nil || st.Plan.ID != "v2-plan" || st.Plan.Generation != got.Generation || len(st.Plan.Steps) != 2 {
		t.Fatalf("stored plan = %+v, want v2-plan for generation %d with 2 steps", st.Plan, got.Generation)
	}
	// The plan's version was applied (verify.go) under the verifier's too.
	for _, owner := range []string{"rollout-planner", "rollout-verifier"} {
		applied := false
		for _, mf := range got.ManagedFields {
			if mf.Manager == owner && mf.Operation == metav1.ManagedFieldsOperationApply && mf.Subresource == "status" {
				applied = true
			}
		}
		if !applied {
			t.Fatalf("no status apply by %s in managedFields: %+v", owner, got.ManagedFields)
		}
	}
}
