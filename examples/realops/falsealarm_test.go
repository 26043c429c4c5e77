package realops

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestLostWriteOfADeletedObject is the minimal trigger of the false alarm
// the JobSet replay showed (examples/realops/README.md, JobSet): a
// reconciler that adds label a to ConfigMap x by a merge patch adds it
// (step 1) and crashes, a standby takes over; the user replaces x (deleted,
// created again without the label); the new leader, whose cache still holds
// x as it was created, adds the label to the new x. Nothing is lost: the
// new x gets the label as it should. The explorer once reported the label
// "written by step 2" (the deletion, which took it away with the old x) as
// overwritten by step 3, keeping a field's writer per object name across
// the deletion and the create; it now keeps it per object, and reports
// nothing here.
func TestLostWriteOfADeletedObject(t *testing.T) {
	env := startJobSet(t) // any full API: ConfigMaps only
	key := types.NamespacedName{Namespace: "fa", Name: "x"}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "label", For: &corev1.ConfigMap{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
					cm := &corev1.ConfigMap{}
					if err := c.Get(ctx, req.NamespacedName, cm); err != nil || cm.Labels["a"] == "1" {
						return reconcile.Result{}, client.IgnoreNotFound(err)
					}
					return reconcile.Result{}, c.Patch(ctx, cm, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"1"}}}`)))
				})
			}}},
		Objects: []client.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
		Actions: []explore.Action{{Name: "replace", Run: func(ctx context.Context, c client.Client) error { // kubectl replace --force
			if err := c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}); err != nil {
				return err
			}
			return c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}})
		}}},
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true,
		Replay: "label:fa/x@0#1L !replace label:fa/x@3"})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; v != nil {
		t.Fatalf("the new x's label reported as a lost write of the deleted x's (a field's writer kept across a delete and a create):\n%v", v)
	}
}
