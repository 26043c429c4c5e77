package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// summaryKey is the Widget the summary controller keeps: it counts the
// Gizmos of its namespace in status.phase. Nothing watched names it until
// it exists: only the event the gizmo controller pushes to the summary
// controller's channel does (as kueue's workload controller pushes to its
// LocalQueue controller's).
var summaryKey = client.ObjectKey{Namespace: "ns", Name: "summary"}

// channelScenario is two controllers of one Setup: "gizmo" (For Gizmo)
// pushes an event naming the summary Widget to an unbuffered channel on
// every reconcile, and "summary" (For Widget) is woken by that channel
// (WatchesRawSource(source.Channel)). The summary reconciler creates the
// Widget when missing and sets its phase to the Gizmos it counts;
// createOnly sets the phase only when it creates it, counting from the
// cache (a bug: a count the cache had not caught up on stays).
func channelScenario(createOnly bool) explore.Scenario {
	return explore.Scenario{
		Actions: []explore.Action{{Name: "add-gizmo", Run: func(ctx context.Context, c client.Client) error {
			return c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g"}})
		}}},
		Setup: func(mgr ctrl.Manager) error {
			pushed := make(chan event.GenericEvent) // unbuffered: the explorer's pump takes each push
			c, api := mgr.GetClient(), mgr.GetAPIReader()
			gizmo := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				pushed <- event.GenericEvent{Object: &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: summaryKey.Namespace, Name: summaryKey.Name}}}
				return reconcile.Result{}, nil
			})
			if err := ctrl.NewControllerManagedBy(mgr).Named("gizmo").For(&testv1.Gizmo{}).Complete(gizmo); err != nil {
				return err
			}
			summary := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				if req.NamespacedName != summaryKey {
					return reconcile.Result{}, nil
				}
				counter := api
				if createOnly {
					counter = c
				}
				var l testv1.GizmoList
				if err := counter.List(ctx, &l, client.InNamespace(req.Namespace)); err != nil {
					return reconcile.Result{}, err
				}
				w := &testv1.Widget{}
				err := api.Get(ctx, req.NamespacedName, w)
				switch {
				case apierrors.IsNotFound(err):
					w = &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
					if err := c.Create(ctx, w); err != nil {
						return reconcile.Result{}, err
					}
				case err != nil:
					return reconcile.Result{}, err
				case createOnly:
					return reconcile.Result{}, nil
				}
				if n := strconv.Itoa(len(l.Items)); w.Status.Phase != n {
					w.Status.Phase = n
					return reconcile.Result{}, c.Status().Update(ctx, w)
				}
				return reconcile.Result{}, nil
			})
			return ctrl.NewControllerManagedBy(mgr).Named("summary").For(&testv1.Widget{}).
				WatchesRawSource(source.Channel(pushed, &handler.EnqueueRequestForObject{})).
				Complete(summary)
		},
		Invariant: func(ctx context.Context, r client.Reader) error {
			var l testv1.GizmoList
			if err := r.List(ctx, &l, client.InNamespace("ns")); err != nil {
				return err
			}
			if len(l.Items) == 0 {
				return nil
			}
			w := &testv1.Widget{}
			if err := r.Get(ctx, summaryKey, w); err != nil {
				return fmt.Errorf("summary: %w", err)
			}
			if w.Status.Phase != strconv.Itoa(len(l.Items)) {
				return fmt.Errorf("summary phase %q, want %d Gizmos counted", w.Status.Phase, len(l.Items))
			}
			return nil
		},
	}
}

// A controller woken by a channel source: the events the operator's code
// pushes are delivered in steps the schedule chooses, and what their
// handler queues runs. Without them nothing would ever queue the summary
// Widget, which does not exist yet, and every schedule would end with it
// missing (a false alarm); before pushes were modelled, Run refused the
// channel source.
func TestChannelSourceDelivered(t *testing.T) {
	res, err := explore.Run(t.Context(), channelScenario(false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("correct summary controller: want no violation, every schedule run; got %+v", res)
	}

	// The delivery is a step of its own, named in the seed, and replays.
	o := serverOptions(t)
	o.Replay = "!add-gizmo gizmo:ns/g@0 ^summary:ns/summary summary:ns/summary@0"
	if res, err := explore.Run(t.Context(), channelScenario(false), o); err != nil || res.Violation != nil || res.Diverged != "" {
		t.Fatalf("replay %q: %v, %+v", o.Replay, err, res)
	}
}

// The schedule chooses when a pushed event reaches the queue, and the
// reconcile it queues reads as any: the bug of a summary counted from a
// cache that has not seen the Gizmo yet, and never counted again, is
// found. The schedule that delivers the push (the minimiser may keep a
// shorter one: a replay runs a reconcile nothing queued) breaks it, names
// the delivery in its seed, says what it queued, and replays.
func TestChannelSourceBugFound(t *testing.T) {
	o := serverOptions(t)
	o.Depth = 4 // the action, the gizmo's reconcile, the delivery, the summary's (the drain reads fresh)
	res, err := explore.Run(t.Context(), channelScenario(true), o)
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; v == nil || v.Invariant != explore.InvariantUser {
		t.Fatalf("create-only summary: want the user invariant broken, got:\n%v", v)
	}
	o.Replay = "!add-gizmo gizmo:ns/g@0 ^summary:ns/summary summary:ns/summary@1"
	res, err = explore.Run(t.Context(), channelScenario(true), o)
	v := res.Violation
	if err != nil || v == nil || v.Invariant != explore.InvariantUser || res.Diverged != "" {
		t.Fatalf("replay of %q: %v, %+v", o.Replay, err, res)
	}
	delivered := false
	for _, s := range v.Steps {
		delivered = delivered || (s.Reconciler == "push ^summary:ns/summary" && s.Result == "queued ns/summary" && !s.Drain)
	}
	if !delivered || !strings.Contains(v.Seed, "^summary:ns/summary") {
		t.Fatalf("no chosen step delivered the push and queued ns/summary, or the seed does not name it:\n%v", v)
	}
}

// What the explorer cannot deliver in a step of its choosing is refused
// by name, never dropped: a source.Func adds to the queue whenever the
// operator's code calls it.
func TestSetupRefusesFuncSource(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{})
	s.Reconcilers = nil
	s.Setup = func(mgr ctrl.Manager) error {
		r := &gizmoReconciler{c: mgr.GetClient(), api: mgr.GetAPIReader()}
		return ctrl.NewControllerManagedBy(mgr).For(&testv1.Widget{}).
			WatchesRawSource(source.Func(func(context.Context, workqueue.TypedRateLimitingInterface[reconcile.Request]) error { return nil })).Complete(r)
	}
	_, err := explore.Run(t.Context(), s, serverOptions(t))
	if err == nil || !strings.Contains(err.Error(), "watch 1 is a source.Func (source.TypedFunc[") {
		t.Fatalf("got %v, want the source.Func refused by name", err)
	}
}
