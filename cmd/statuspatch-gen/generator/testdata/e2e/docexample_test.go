package e2e

import (
	"context"
	"testing"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	conditionsv1 "example.com/goldens/api/conditions/v1"
	plainv1 "example.com/goldens/api/plain/v1"
	patchers "example.com/goldens/patchers/all-kinds"
)

// The lines between doc:begin and doc:end are docs/generator.md's
// example of For and ForType (TestDispatchDocExample compares them).

// doc:begin

// setReady is a helper shared by several kinds: it holds the object as
// client.Object, and For gives it the kind's own patcher.
func setReady(ctx context.Context, c client.Client, obj client.Object, conditions func(client.Object) *[]metav1.Condition) error {
	p, err := patchers.For(c, obj) // an error naming obj's type when no patcher is generated for it
	if err != nil {
		return err
	}
	apimeta.SetStatusCondition(conditions(p.Object()), metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	return p.Flush(ctx) // one PATCH under the optimistic lock, or none
}

// Reconciler is a generic reconciler over one kind: ForType gives it the
// kind's *patcher.Patcher[T], with Retry over T.
type Reconciler[T client.Object] struct {
	Client client.Client
	New    func() T
	Decide func(T) error
}

func (r *Reconciler[T]) Reconcile(ctx context.Context, key client.ObjectKey) error {
	obj := r.New()
	if err := r.Client.Get(ctx, key, obj); err != nil {
		return client.IgnoreNotFound(err)
	}
	p, err := patchers.ForType(r.Client, obj)
	if err != nil {
		return err
	}
	return p.Retry(ctx, r.Decide) // on a 409: read again, decide again
}

// doc:end

func TestDocExample(t *testing.T) {
	c := newClient(t, &conditionsv1.Gadget{ObjectMeta: meta("g", 1)}, &plainv1.Widget{ObjectMeta: meta("w", 1)})
	g := &conditionsv1.Gadget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "g"}, g); err != nil {
		t.Fatal(err)
	}
	if err := setReady(ctx, c, g, func(o client.Object) *[]metav1.Condition { return &o.(*conditionsv1.Gadget).Status.Conditions }); err != nil {
		t.Fatal(err)
	}
	r := &Reconciler[*plainv1.Widget]{Client: c, New: func() *plainv1.Widget { return &plainv1.Widget{} },
		Decide: func(w *plainv1.Widget) error { w.Status.Phase = "Ready"; return nil }}
	if err := r.Reconcile(ctx, client.ObjectKey{Namespace: "default", Name: "w"}); err != nil {
		t.Fatal(err)
	}
	var gotG conditionsv1.Gadget
	var gotW plainv1.Widget
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "g"}, &gotG); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, &gotW); err != nil {
		t.Fatal(err)
	}
	if !apimeta.IsStatusConditionTrue(gotG.Status.Conditions, "Ready") || gotW.Status.Phase != "Ready" {
		t.Fatalf("stored: gadget %+v, widget %+v", gotG.Status, gotW.Status)
	}
}
