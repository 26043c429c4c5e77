package crinternals

import (
	"context"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// queue records what a handler adds.
type queue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	added []reconcile.Request
}

func (q *queue) Add(r reconcile.Request)                       { q.added = append(q.added, r) }
func (q *queue) AddRateLimited(r reconcile.Request)            { q.Add(r) }
func (q *queue) AddAfter(r reconcile.Request, _ time.Duration) { q.Add(r) }

// A typed handler and typed predicate are called with the event of a *T,
// as the untyped ones are; an object of another type reaches neither (the
// predicate does not pass it). A handler that queues the object itself is
// told apart, typed or not.
func TestTypedAdapters(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: map[string]string{"run": "yes"}}}
	other := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c", Labels: map[string]string{"run": "yes"}}}
	h, ok := handlerOf(&handler.TypedEnqueueRequestForObject[*corev1.Pod]{})
	if !ok {
		t.Fatal("a typed handler was refused")
	}
	q := &queue{}
	ctx := context.Background()
	h.Create(ctx, event.CreateEvent{Object: pod}, q)
	h.Update(ctx, event.UpdateEvent{ObjectOld: pod, ObjectNew: pod}, q)
	h.Delete(ctx, event.DeleteEvent{Object: pod}, q)
	h.Create(ctx, event.CreateEvent{Object: other}, q)
	if len(q.added) != 3 || q.added[0].Name != "p" {
		t.Fatalf("queued %v, want p three times (create, update, delete) and not c", q.added)
	}

	labelled := predicate.NewTypedPredicateFuncs(func(p *corev1.Pod) bool { return p.Labels["run"] == "yes" })
	ps, ok := predicatesOf(reflect.ValueOf([]predicate.TypedPredicate[*corev1.Pod]{labelled}))
	if !ok || len(ps) != 1 {
		t.Fatalf("typed predicates: %v, %t", ps, ok)
	}
	if !ps[0].Create(event.CreateEvent{Object: pod}) || !ps[0].Update(event.UpdateEvent{ObjectOld: pod, ObjectNew: pod}) {
		t.Error("the typed predicate did not pass the labelled Pod")
	}
	if ps[0].Create(event.CreateEvent{Object: other}) {
		t.Error("the typed predicate passed a ConfigMap")
	}

	for h, want := range map[any]bool{
		&handler.EnqueueRequestForObject{}:                                           true,
		&handler.TypedEnqueueRequestForObject[*corev1.Pod]{}:                         true,
		handler.EnqueueRequestsFromMapFunc(nil):                                      false,
		handler.TypedEnqueueRequestsFromMapFunc[*corev1.Pod, reconcile.Request](nil): false,
	} {
		if got := forObject(h); got != want {
			t.Errorf("forObject(%T) = %t, want %t", h, got, want)
		}
	}
}
