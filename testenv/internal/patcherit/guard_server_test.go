package patcherit_test

import (
	"errors"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// Issue 80 (kueue's TestUpdateCqStatusIfChanged after -fix): the guard's
// schema is the one controller-gen emits, and the server decides. A
// store without it (a fake client here; a handwritten or older CRD
// alike) keeps a condition the guard names, as Status().Update did, so a
// write moved onto Flush behaves as the Update it replaced: a fixture's
// condition without lastTransitionTime whose message the code changes.
func TestGuardLetsTheServerDecide(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	bare := metav1.Condition{Type: "Active", Status: metav1.ConditionFalse, Reason: "FlavorNotFound", Message: "some flavors are not found"}
	widget := func(name string) *v1.Widget {
		return &v1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
			Status: v1.WidgetStatus{Conditions: []metav1.Condition{bare}}}
	}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(widget("by-hand"), widget("flushed")).
		WithStatusSubresource(&v1.Widget{}).Build()

	// The Update the write was.
	w := &v1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "by-hand"}, w); err != nil {
		t.Fatal(err)
	}
	w.Status.Conditions[0].Message = "all flavors are found"
	if err := c.Status().Update(ctx, w); err != nil {
		t.Fatalf("Status().Update = %v: the store refuses what this test needs it to keep", err)
	}

	// The Flush it became.
	key := client.ObjectKey{Namespace: "default", Name: "flushed"}
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Conditions[0].Message = "all flavors are found"
	if err := p.Flush(ctx); err != nil {
		if errors.Is(err, patcher.ErrInvalidCondition) {
			t.Fatalf("Flush = %v: the guard refused what the store keeps", err)
		}
		t.Fatal(err)
	}
	got := &v1.Widget{}
	if err := c.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if m := got.Status.Conditions[0].Message; m != "all flavors are found" {
		t.Fatalf("stored message %q, want the Flush's", m)
	}
}

// Reviewer R1's case: a CRD without the condition schema (handwritten, or
// older than the code) and with an enum on phase. It stores a condition
// without lastTransitionTime, and Flush does too; a 422 for the phase
// alone is the server's, not blamed on the condition.
func TestGuardNamesOnlyWhatTheServerRefused(t *testing.T) {
	crds := testapi.CRDs()
	for _, c := range crds {
		if c.Spec.Names.Kind != "Widget" {
			continue
		}
		st := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
		yes := true
		st.Properties["conditions"] = apiextensionsv1.JSONSchemaProps{Type: "array",
			Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &yes}}}
		ph := st.Properties["phase"]
		ph.Enum = []apiextensionsv1.JSON{{Raw: []byte(`"Running"`)}, {Raw: []byte(`"Done"`)}}
		st.Properties["phase"] = ph
		c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"] = st
	}
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	e, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(crds...), testenv.WithScheme(s))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	key := client.ObjectKey{Namespace: "default", Name: "misattr"}
	if err := e.Client.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "misattr"}}); err != nil {
		t.Fatal(err)
	}
	// 1: this server stores a condition without lastTransitionTime.
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Fine"}}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush of a condition without lastTransitionTime = %v: this server's CRD has no condition schema and stores it", err)
	}
	// 2: another one, and a phase outside the enum.
	p, err = patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Conditions = append(p.Object().Status.Conditions, metav1.Condition{Type: "Other", Status: metav1.ConditionTrue, Reason: "Fine"})
	p.Object().Status.Phase = "Bogus"
	err = p.Flush(ctx)
	if !apierrors.IsInvalid(err) || errors.Is(err, patcher.ErrInvalidCondition) {
		t.Fatalf("Flush = %v; want the server's 422 for the phase alone, not ErrInvalidCondition (the server stores such conditions)", err)
	}
}
