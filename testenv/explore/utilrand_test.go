package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// randomChild names a Widget's Gizmo with apimachinery's util/rand, as
// Cluster API's MachineDeployment controller names a new MachineSet
// (computeNewMachineSetName: the name and five random characters), and
// records the name in the Widget's status.
type randomChild struct{ c client.Client }

func (r randomChild) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Status.Phase != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-" + utilrand.String(5)}}
	if err := r.c.Create(ctx, g); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Phase = g.Name
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// Every schedule seeds apimachinery's util/rand the same way, as it does
// the names of generateName, so the same choices draw the same random
// names: a replay of an operator that names its children with it does not
// diverge. Before, the replay of Cluster API's duplicate MachineSet
// (examples/realops6) diverged at the MachineSet's create, "the
// operator's own randomness ... decided differently", which its user
// could not change.
func TestUtilRandNamesReplay(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return randomChild{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	o := serverOptions(t)
	o.Replay = "-"
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" || res.Violation != nil {
		t.Fatalf("replay of %q: want the same schedule twice and no violation, got diverged %q, violation:\n%v", o.Replay, res.Diverged, res.Violation)
	}
}
