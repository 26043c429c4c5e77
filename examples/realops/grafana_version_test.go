package realops

import (
	"context"
	"testing"

	grafanav1beta1 "github.com/grafana/grafana-operator/v5/api/v1beta1"
	grafanacontrollers "github.com/grafana/grafana-operator/v5/controllers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestGrafanaOverwritesPinnedVersion plays, on the real server and without
// the explorer, the lost write the explorer finds in grafana-operator
// (docs/explore-your-operator.md): a Grafana created without spec.version,
// the user pins spec.version, and a reconcile whose cached read of the
// Grafana is from before the pin writes the operator's default version
// over it with a merge patch that carries no resourceVersion
// (setDefaultGrafanaVersion). The user's version is gone for good: the
// next reconcile sees a version and leaves it.
func TestGrafanaOverwritesPinnedVersion(t *testing.T) {
	env := startGrafana(t)
	ctx, key := t.Context(), client.ObjectKey{Namespace: grafanaNS, Name: "pinned"}
	g := &grafanav1beta1.Grafana{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	if err := env.Client.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	before := g.DeepCopy() // what a cache that has not seen the pin holds
	g.Spec.Version = "11.6.0"
	if err := env.Client.Update(ctx, g); err != nil { // the user pins the version
		t.Fatal(err)
	}
	r := &grafanacontrollers.GrafanaReconciler{Client: &staleGrafanaGet{Client: env.Client, stale: before}, Scheme: env.Client.Scheme()}
	if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key}); err != nil {
		t.Logf("reconcile from the stale read: %v", err)
	}
	got := &grafanav1beta1.Grafana{}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Version == "11.6.0" {
		t.Fatalf("Grafana %s keeps the user's spec.version 11.6.0: the operator no longer overwrites it; update examples/realops/README.md", key)
	}
	t.Logf("the user pinned spec.version 11.6.0; a reconcile from a read before the pin wrote %q over it", got.Spec.Version)
	// A fresh reconcile keeps the operator's version: the user's is lost.
	r.Client = env.Client
	if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key}); err != nil {
		t.Logf("fresh reconcile: %v", err)
	}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Version == "11.6.0" {
		t.Fatalf("a fresh reconcile restored 11.6.0")
	}
}

// staleGrafanaGet answers the first Get of the Grafana with stale, as a
// cache that has not yet seen the user's update, and reads the server
// otherwise.
type staleGrafanaGet struct {
	client.Client
	stale *grafanav1beta1.Grafana
}

func (c *staleGrafanaGet) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if g, ok := obj.(*grafanav1beta1.Grafana); ok && c.stale != nil && key == client.ObjectKeyFromObject(c.stale) {
		c.stale.DeepCopyInto(g)
		c.stale = nil
		return nil
	}
	return c.Client.Get(ctx, key, obj, opts...)
}
