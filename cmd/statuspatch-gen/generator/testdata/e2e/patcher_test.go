// Package e2e exercises generated patchers on controller-runtime's fake
// client. The test on a real API server lives in the examples module.
package e2e

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	conditionsv1 "example.com/goldens/api/conditions/v1"
	plainv1 "example.com/goldens/api/plain/v1"
	shapesv1 "example.com/goldens/api/shapes/v1"
	allkinds "example.com/goldens/patchers/all-kinds"
)

var ctx = context.Background()

func newClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{plainv1.AddToScheme, conditionsv1.AddToScheme, shapesv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
		WithStatusSubresource(&plainv1.Widget{}, &conditionsv1.Gadget{}, &conditionsv1.Fleet{},
			&shapesv1.PointerWidget{}, &shapesv1.EmbeddedWidget{}).
		Build()
}

func meta(name string, gen int64) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "default", Name: name, Generation: gen}
}

func TestFlushWritesStatusAndHasChanges(t *testing.T) {
	c := newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)})
	p, err := plainv1.FetchWidgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if p.HasChanges() {
		t.Fatal("HasChanges before any mutation")
	}
	p.Status().Phase = "Ready"
	if !p.HasChanges() {
		t.Fatal("HasChanges false after mutating the status")
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if p.HasChanges() {
		t.Fatal("HasChanges after Flush")
	}
	var got plainv1.Widget
	if err := c.Get(ctx, client.ObjectKeyFromObject(p.Object()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != "Ready" {
		t.Fatalf("status not written: %+v", got.Status)
	}
}

func TestFetchNotFound(t *testing.T) {
	c := newClient(t)
	p, err := plainv1.FetchWidgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "missing"})
	if err == nil || p != nil {
		t.Fatalf("Fetch of a missing object = %v, %v; want nil, error", p, err)
	}
}

func TestSetConditionKeepsLastTransitionTime(t *testing.T) {
	c := newClient(t, &conditionsv1.Gadget{ObjectMeta: meta("g", 3)})
	key := client.ObjectKey{Namespace: "default", Name: "g"}
	p, err := conditionsv1.FetchGadgetStatusPatcher(ctx, c, key)
	if err != nil {
		t.Fatal(err)
	}
	if !p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Starting"}) {
		t.Fatal("SetCondition of a new condition reported no change")
	}
	first := p.Condition("Ready")
	if first == nil || first.LastTransitionTime.IsZero() || first.ObservedGeneration != 3 {
		t.Fatalf("condition after SetCondition: %+v", first)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // LastTransitionTime has second precision on the wire
	p, err = conditionsv1.FetchGadgetStatusPatcher(ctx, c, key)
	if err != nil {
		t.Fatal(err)
	}
	ltt := p.Condition("Ready").LastTransitionTime // as stored
	if !p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "StillStarting"}) {
		t.Fatal("SetCondition with a new reason reported no change")
	}
	if got := p.Condition("Ready").LastTransitionTime; !got.Equal(&ltt) {
		t.Fatalf("LastTransitionTime moved on an unchanged status: %v -> %v", ltt, got)
	}
	if p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "StillStarting"}) {
		t.Fatal("SetCondition of an identical condition reported a change")
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if !p.RemoveCondition("Ready") || p.RemoveCondition("Ready") {
		t.Fatal("RemoveCondition should report true once")
	}
	if p.Condition("Ready") != nil {
		t.Fatal("condition still there after RemoveCondition")
	}
}

func TestMarkObserved(t *testing.T) {
	c := newClient(t, &conditionsv1.Gadget{ObjectMeta: meta("g", 5)})
	p, err := conditionsv1.FetchGadgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if !p.MarkObserved() || p.MarkObserved() {
		t.Fatal("MarkObserved should report a change once")
	}
	if p.Status().ObservedGeneration != p.Object().Generation {
		t.Fatalf("observedGeneration %d, generation %d", p.Status().ObservedGeneration, p.Object().Generation)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var got conditionsv1.Gadget
	if err := c.Get(ctx, client.ObjectKeyFromObject(p.Object()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.ObservedGeneration != got.Generation {
		t.Fatalf("stored observedGeneration %d, generation %d", got.Status.ObservedGeneration, got.Generation)
	}
}

func TestPointerStatusIsAllocated(t *testing.T) {
	c := newClient(t, &shapesv1.PointerWidget{ObjectMeta: meta("pw", 2)})
	p, err := shapesv1.FetchPointerWidgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Condition("Ready") != nil || p.RemoveCondition("Ready") {
		t.Fatal("reading a nil pointer status found a condition")
	}
	if p.Object().Status != nil {
		t.Fatal("reading helpers allocated the status")
	}
	if p.Status() == nil || p.Object().Status == nil {
		t.Fatal("Status() did not allocate a nil pointer status")
	}
	p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	p.MarkObserved()
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var got shapesv1.PointerWidget
	if err := c.Get(ctx, client.ObjectKeyFromObject(p.Object()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status == nil || len(got.Status.Conditions) != 1 || got.Status.ObservedGeneration != 2 {
		t.Fatalf("stored status: %+v", got.Status)
	}
}

func TestEmbeddedStatusHelpers(t *testing.T) {
	ew := &shapesv1.EmbeddedWidget{ObjectMeta: metav1.ObjectMeta{Name: "cluster-scoped", Generation: 4}}
	c := newClient(t, ew)
	p, err := shapesv1.FetchEmbeddedWidgetStatusPatcher(ctx, c, client.ObjectKey{Name: "cluster-scoped"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	p.MarkObserved()
	p.Status().Ready = true
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var got shapesv1.EmbeddedWidget
	if err := c.Get(ctx, client.ObjectKey{Name: "cluster-scoped"}, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Status.Ready || got.Status.ObservedGeneration != 4 || len(got.Status.Conditions) != 1 {
		t.Fatalf("stored status: %+v", got.Status)
	}
}

func TestRetryAndFinalizers(t *testing.T) {
	c := newClient(t, &conditionsv1.Gadget{ObjectMeta: meta("g", 1)})
	p, err := conditionsv1.FetchGadgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if added, err := p.AddFinalizer(ctx, "goldens.example.com/cleanup"); err != nil || !added {
		t.Fatalf("AddFinalizer = %v, %v", added, err)
	}
	err = p.Retry(ctx, func(g *conditionsv1.Gadget) error {
		g.Status.ObservedGeneration = g.Generation
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if removed, err := p.RemoveFinalizer(ctx, "goldens.example.com/cleanup"); err != nil || !removed {
		t.Fatalf("RemoveFinalizer = %v, %v", removed, err)
	}
	if p.Patcher() == nil {
		t.Fatal("Patcher() is nil")
	}
}

func TestOutputDirPackage(t *testing.T) {
	c := newClient(t, &conditionsv1.Gadget{ObjectMeta: meta("g", 7)})
	p, err := allkinds.FetchGadgetStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "g"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	p.MarkObserved()
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var got conditionsv1.Gadget
	if err := c.Get(ctx, client.ObjectKeyFromObject(p.Object()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.ObservedGeneration != 7 || got.Status.Conditions[0].ObservedGeneration != 7 {
		t.Fatalf("stored status: %+v", got.Status)
	}
}

func TestNilObjectIsSafe(t *testing.T) {
	c := newClient(t)
	var typedNil *conditionsv1.Gadget
	for name, p := range map[string]*conditionsv1.GadgetStatusPatcher{
		"nil":       conditionsv1.NewGadgetStatusPatcher(c, nil),
		"typed nil": conditionsv1.NewGadgetStatusPatcher(c, typedNil),
	} {
		t.Run(name, func(t *testing.T) {
			if p.Object() != nil || p.Status() != nil {
				t.Fatal("Object or Status not nil")
			}
			if p.HasChanges() || p.SetCondition(metav1.Condition{Type: "Ready"}) || p.RemoveCondition("Ready") || p.MarkObserved() {
				t.Fatal("a helper reported a change on a nil object")
			}
			if p.Condition("Ready") != nil {
				t.Fatal("Condition not nil")
			}
			if err := p.Flush(ctx); err == nil {
				t.Fatal("Flush on a nil object returned nil")
			}
			if err := p.Retry(ctx, func(*conditionsv1.Gadget) error { return nil }); err == nil {
				t.Fatal("Retry on a nil object returned nil")
			}
			if ok, err := p.AddFinalizer(ctx, "x"); ok || err == nil {
				t.Fatalf("AddFinalizer on a nil object = %v, %v", ok, err)
			}
			if ok, err := p.RemoveFinalizer(ctx, "x"); ok || err == nil {
				t.Fatalf("RemoveFinalizer on a nil object = %v, %v", ok, err)
			}
		})
	}
	ptr := shapesv1.NewPointerWidgetStatusPatcher(c, nil)
	if ptr.Status() != nil || ptr.SetCondition(metav1.Condition{Type: "Ready"}) || ptr.MarkObserved() {
		t.Fatal("pointer-status patcher on a nil object")
	}
}
