package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// labelAdder adds label a to its Widget by a merge patch, deciding from the
// cache.
type labelAdder struct{ c client.Client }

func (r labelAdder) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Labels["a"] == "1" {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	return reconcile.Result{}, r.c.Patch(ctx, w, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"1"}}}`)))
}

// A field's writer is per object, not per name: after the user deletes a
// Widget and creates it again, a new leader whose cache still holds the
// old Widget adds the label to the new one, and nothing is lost (the
// deletion, which took the old label away, does not own the new one's).
// A write to the new object that overwrites what was written on it (here
// the label its create set) by a step that saw only the old one is still
// a lost write.
func TestLostWriteAcrossDeleteAndCreate(t *testing.T) {
	key := types.NamespacedName{Namespace: "fa", Name: "x"}
	for _, tc := range []struct {
		name    string
		created string // label a of the Widget created again ("": none)
		lost    string // the lost write reported ("": none)
	}{
		{"new object without the label", "", ""},
		{"new object with another label", "2", "metadata.labels.a written by step 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "label", For: &testv1.Widget{},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return labelAdder{c: c} }}},
				Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
				Actions: []explore.Action{{Name: "replace", Run: func(ctx context.Context, c client.Client) error {
					if err := c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}); err != nil {
						return err
					}
					w := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
					if tc.created != "" {
						w.Labels = map[string]string{"a": tc.created}
					}
					return c.Create(ctx, w)
				}}},
			}
			replayLost(t, s, explore.Options{Crashes: 1, LeaderChange: true, Replay: "label:fa/x@0#1L !replace label:fa/x@3"}, tc.lost)
		})
	}
}
