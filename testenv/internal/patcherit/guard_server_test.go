package patcherit_test

import (
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
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
