package explore_test

import (
	"context"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// blindDeleter deletes Widget ns/settings, there before Run, by name,
// without reading it, once Widget w is labelled (after marking w). Before
// that, a reconcile of w looks for the settings on the server outside
// the explorer (look, which no book sees): absent counts in moved.
type blindDeleter struct {
	c       client.Client
	api     client.Reader
	look    client.Reader
	deleted *atomic.Int64
	moved   *atomic.Int64
}

func (r *blindDeleter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name != "w" {
		return ctrl.Result{}, nil
	}
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Annotations["wrote"] != "" {
		return ctrl.Result{}, nil
	}
	err := r.look.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "settings"}, &testv1.Widget{})
	if apierrors.IsNotFound(err) {
		r.moved.Add(1)
		return ctrl.Result{}, nil
	} else if err != nil {
		return ctrl.Result{}, err
	}
	if w.Labels["team"] != "a" {
		return ctrl.Result{}, nil
	}
	mark := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"wrote":"yes"}}}`))
	if err := r.c.Patch(ctx, w, mark); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "ns"}}); err != nil {
		return ctrl.Result{}, err
	}
	r.deleted.Add(1)
	return ctrl.Result{}, nil
}

// An object there before Run whose first contact is a step's write, a
// delete by name without a read (the embedded server serves no
// ConfigMap: a Widget, through the same typed delete): every schedule after the one that
// deleted it starts with it as the test made it, and the search leaves
// it so.
func TestResetRestoresAStartDeletedBlind(t *testing.T) {
	env := server(t)
	start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}, Spec: testv1.WidgetSpec{Size: 2, Data: "start"}}
	if err := env.Client.Create(t.Context(), start); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Client.Delete(context.Background(), start); client.IgnoreNotFound(err) != nil {
			t.Errorf("removing the settings: %v", err)
		}
	})
	var deleted, moved atomic.Int64
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "deleter", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &blindDeleter{c: c, api: api, look: env.Client, deleted: &deleted, moved: &moved}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "label", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"a"}}}`)))
		}}},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || moved.Load() != 0 || deleted.Load() < 2 {
		t.Fatalf("want every schedule to start with the settings, no violation; got %d schedules (exhausted %v), %d reconciles found them gone, %d deleted them:\n%v",
			res.Schedules, res.Exhausted, moved.Load(), deleted.Load(), res.Violation)
	}
	after := &testv1.Widget{}
	if err := env.Client.Get(t.Context(), client.ObjectKeyFromObject(start), after); err != nil || !asStarted(after, start) {
		t.Fatalf("the settings after the search: %v, %+v; want them as made", err, after)
	}
}
