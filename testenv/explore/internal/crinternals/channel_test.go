package crinternals

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// A channel source of events that are not objects (kueue pushes
// iter.Seq values to its ClusterQueue controller), with a predicate: Inspect
// reads it as a Channel, which delivers what it receives through the
// predicate and the handler, and has no Object.
func TestInspectChannel(t *testing.T) {
	do := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil })
	r, err := controller.NewUnmanaged("queues", controller.Options{Reconciler: do, SkipNameValidation: ptr.To(true)})
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan event.TypedGenericEvent[[]string], 1)
	h := handler.TypedFuncs[[]string, reconcile.Request]{GenericFunc: func(_ context.Context, e event.TypedGenericEvent[[]string], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
		for _, n := range e.Object {
			q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Name: n}})
		}
	}}
	notEmpty := predicate.TypedFuncs[[]string]{GenericFunc: func(e event.TypedGenericEvent[[]string]) bool { return len(e.Object) > 0 }}
	if err := r.Watch(source.TypedChannel(ch, h, source.WithPredicates[[]string, reconcile.Request](notEmpty))); err != nil {
		t.Fatal(err)
	}
	c, err := Inspect(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Watches) != 0 || len(c.Channels) != 1 {
		t.Fatalf("got %d watches, %d channels; want the one channel", len(c.Watches), len(c.Channels))
	}
	got := c.Channels[0]
	for _, tc := range []struct {
		sent []string
		want int
	}{{[]string{"a", "b"}, 2}, {nil, 0}} {
		ch <- event.TypedGenericEvent[[]string]{Object: tc.sent}
		evt, ok := got.Source.Recv()
		if !ok {
			t.Fatal("the channel read is not the one sent to")
		}
		if o := got.Object(evt); o != nil {
			t.Errorf("an event of []string has object %v", o)
		}
		if reqs := got.Queue(context.Background(), evt); len(reqs) != tc.want {
			t.Errorf("%v queued %v, want %d requests", tc.sent, reqs, tc.want)
		}
	}
	if !strings.HasPrefix(got.Name, "*source.channel[[]string,") {
		t.Errorf("named %q, want its Go type", got.Name)
	}
}
