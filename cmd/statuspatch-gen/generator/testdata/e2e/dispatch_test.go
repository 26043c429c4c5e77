package e2e

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"

	conditionsv1 "example.com/goldens/api/conditions/v1"
	plainv1 "example.com/goldens/api/plain/v1"
	allkinds "example.com/goldens/patchers/all-kinds"
)

// statusPatches wraps c so that every status patch it sends is recorded.
func statusPatches(c client.Client, sent *[]string) client.Client {
	return interceptor.NewClient(c.(client.WithWatch), interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			data, err := p.Data(obj)
			if err != nil {
				return err
			}
			*sent = append(*sent, sub+" "+string(data))
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
}

// markDone is a helper shared by several kinds, as operators write them:
// it holds the object as client.Object and gets its patcher from For.
func markDone(ctx context.Context, c client.Client, obj client.Object) error {
	p, err := allkinds.For(c, obj)
	if err != nil {
		return err
	}
	switch o := p.Object().(type) {
	case *plainv1.Widget:
		o.Status.Phase = "Done"
	case *conditionsv1.Gadget:
		apimeta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{Type: "Done", Status: metav1.ConditionTrue, Reason: "Done"})
	}
	return p.Flush(ctx)
}

func TestForWritesEachKindThroughItsPatcher(t *testing.T) {
	var sent []string
	c := statusPatches(newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)}, &conditionsv1.Gadget{ObjectMeta: meta("g", 1)}), &sent)
	w, g := &plainv1.Widget{}, &conditionsv1.Gadget{}
	for name, obj := range map[string]client.Object{"w": w, "g": g} {
		if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, obj); err != nil {
			t.Fatal(err)
		}
		if err := markDone(ctx, c, obj); err != nil {
			t.Fatalf("%T: %v", obj, err)
		}
	}
	slices.Sort(sent) // the map's order: status {"conditions":...} before {"phase":...}
	if len(sent) != 2 || !strings.Contains(sent[1], `"phase":"Done"`) || !strings.Contains(sent[0], `"type":"Done"`) {
		t.Fatalf("status patches sent: %q; want one per kind", sent)
	}
	for _, s := range sent {
		if !strings.Contains(s, `"resourceVersion"`) {
			t.Errorf("status patch without the optimistic lock: %s", s)
		}
	}
	// a no-op sends nothing
	if err := markDone(ctx, c, w); err != nil || len(sent) != 2 {
		t.Fatalf("no-op markDone: %v, %d patches", err, len(sent))
	}

	// the same change through the kind's own constructor sends the same bytes
	var own []string
	c2 := statusPatches(newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)}), &own)
	w2 := &plainv1.Widget{}
	if err := c2.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, w2); err != nil {
		t.Fatal(err)
	}
	p := allkinds.NewWidgetStatusPatcher(c2, w2)
	p.Status().Phase = "Done"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(own) != 1 || own[0] != sent[1] {
		t.Fatalf("For's patch %q, the kind's own %q", sent[1], own)
	}
}

func TestForRetryRedecidesOnConflict(t *testing.T) {
	c := newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)})
	w := &plainv1.Widget{}
	key := client.ObjectKey{Namespace: "default", Name: "w"}
	if err := c.Get(ctx, key, w); err != nil {
		t.Fatal(err)
	}
	p, err := allkinds.For(c, w, patcher.WithAPIReader(c))
	if err != nil {
		t.Fatal(err)
	}
	// another writer appends first
	other := &plainv1.Widget{}
	if err := c.Get(ctx, key, other); err != nil {
		t.Fatal(err)
	}
	other.Status.Phase = "a"
	if err := c.Status().Update(ctx, other); err != nil {
		t.Fatal(err)
	}
	runs := 0
	err = p.Retry(ctx, func(o client.Object) error {
		runs++
		o.(*plainv1.Widget).Status.Phase += "b"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got plainv1.Widget
	if err := c.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != "ab" || runs != 2 || p.Object() != client.Object(w) {
		t.Fatalf("stored phase %q after %d runs; want \"ab\" after 2 (the decision made again on the fresh object)", got.Status.Phase, runs)
	}
}

// reconciler is a generic reconciler over one kind, as operators write
// them for several kinds: it gets its patcher from ForType.
type reconciler[T client.Object] struct {
	c      client.Client
	newObj func() T
	decide func(T)
}

func (r reconciler[T]) reconcile(ctx context.Context, key client.ObjectKey) error {
	obj := r.newObj()
	if err := r.c.Get(ctx, key, obj); err != nil {
		return err
	}
	p, err := allkinds.ForType(r.c, obj)
	if err != nil {
		return err
	}
	r.decide(p.Object())
	return p.Flush(ctx)
}

func TestForTypeInAGenericReconciler(t *testing.T) {
	c := newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)}, &conditionsv1.Gadget{ObjectMeta: meta("g", 4)})
	rw := reconciler[*plainv1.Widget]{c, func() *plainv1.Widget { return &plainv1.Widget{} }, func(w *plainv1.Widget) { w.Status.Phase = "Ready" }}
	rg := reconciler[*conditionsv1.Gadget]{c, func() *conditionsv1.Gadget { return &conditionsv1.Gadget{} }, func(g *conditionsv1.Gadget) { g.Status.ObservedGeneration = g.Generation }}
	if err := rw.reconcile(ctx, client.ObjectKey{Namespace: "default", Name: "w"}); err != nil {
		t.Fatal(err)
	}
	if err := rg.reconcile(ctx, client.ObjectKey{Namespace: "default", Name: "g"}); err != nil {
		t.Fatal(err)
	}
	var w plainv1.Widget
	var g conditionsv1.Gadget
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, &w); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "g"}, &g); err != nil {
		t.Fatal(err)
	}
	if w.Status.Phase != "Ready" || g.Status.ObservedGeneration != 4 {
		t.Fatalf("stored: widget %+v, gadget %+v", w.Status, g.Status)
	}
}

func TestForRefusesOtherKinds(t *testing.T) {
	c := newClient(t)
	var nilWidget *plainv1.Widget
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"another kind", func() error { _, err := allkinds.For(c, &corev1.ConfigMap{}); return err }, "*v1.ConfigMap is not a kind"},
		{"nil", func() error { _, err := allkinds.For(c, nil); return err }, "<nil> is not a kind"},
		{"typed nil", func() error { _, err := allkinds.For(c, nilWidget); return err }, "*v1.Widget is not a kind"},
		{"ForType of another kind", func() error { _, err := allkinds.ForType(c, &corev1.ConfigMap{}); return err }, "*v1.ConfigMap is not a kind"},
		{"ForType over an interface", func() error { _, err := allkinds.ForType[client.Object](c, &plainv1.Widget{}); return err }, "Object is a pointer to it; obj is a *v1.Widget"}, // client.Object prints as cacheapi.Object from controller-runtime v0.25, an alias there,
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want one matching patcher.ErrInvalidInput naming %q", err, tc.want)
			}
		})
	}
}

// marker is a method's receiver shared by several kinds, as issue 80's
// status.Manager is: a method cannot take a type parameter, so not a
// *patcher.Patcher[T]; it takes the package's StatusPatcher, which each
// caller's patcher gives with StatusPatcher().
type marker struct{ reason string }

func (m marker) progressing(ctx context.Context, p allkinds.StatusPatcher) error {
	switch o := p.Object().(type) {
	case *plainv1.Widget:
		o.Status.Phase = m.reason
	case *conditionsv1.Gadget:
		apimeta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: m.reason})
	}
	return p.Flush(ctx)
}

func TestStatusPatcherIsTheKindsOwnPatcher(t *testing.T) {
	var sent []string
	c := statusPatches(newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)}), &sent)
	w := &plainv1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, w); err != nil {
		t.Fatal(err)
	}
	p := allkinds.NewWidgetStatusPatcher(c, w)
	p.Status().Replicas = 3
	if err := (marker{"Working"}).progressing(ctx, p.StatusPatcher()); err != nil {
		t.Fatal(err)
	}
	// one life: the method's Flush sent the caller's change with its own,
	// under the lock, and left the caller's patcher nothing to write
	if len(sent) != 1 || !strings.Contains(sent[0], `"phase":"Working"`) || !strings.Contains(sent[0], `"replicas":3`) || !strings.Contains(sent[0], `"resourceVersion"`) {
		t.Fatalf("status patches sent: %q; want one with both changes and the lock", sent)
	}
	if p.HasChanges() || p.StatusPatcher().Object() != client.Object(w) {
		t.Fatalf("after the method's Flush: HasChanges %v, object %p, want false over %p", p.HasChanges(), p.StatusPatcher().Object(), w)
	}
	// the caller's next write sends only its own change: the base moved
	p.Status().Phase = "Done"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || strings.Contains(sent[1], "replicas") || !strings.Contains(sent[1], `"phase":"Done"`) {
		t.Fatalf("status patches sent: %q; want a second with the phase alone", sent)
	}
}
