package explore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// generatedGizmo creates one Gizmo per Widget and records its name in
// status.plan.id. With generateName (the bug) a crash between the create
// and the record leaks a Gizmo: the restarted process, finding no record,
// creates another. With the Widget's own name, the second create finds the
// first (AlreadyExists) and the reconcile records it.
type generatedGizmo struct {
	c        client.Client
	api      client.Reader
	generate bool
}

func (r *generatedGizmo) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Plan != nil && w.Status.Plan.ID != "" {
		return ctrl.Result{}, nil
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	if r.generate {
		g.Name, g.GenerateName = "", w.Name+"-"
	}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Plan = &testv1.WidgetPlan{ID: g.Name}
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func generatedScenario(generate bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &generatedGizmo{c: c, api: api, generate: generate}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Records: []explore.Record{{Of: &testv1.Widget{}, Field: "status.plan.id", Kind: &testv1.Gizmo{}, ByName: true}},
		Invariant: func(ctx context.Context, rd client.Reader) error {
			var l testv1.GizmoList
			if err := rd.List(ctx, &l, client.InNamespace("ns")); err != nil {
				return err
			}
			if len(l.Items) != 1 {
				return fmt.Errorf("%d Gizmos for Widget ns/w, want 1", len(l.Items))
			}
			return nil
		},
	}
}

// A crash right after the create, before the status write, leaks a Gizmo
// when its name was generated; without crashes the same reconciler passes.
// The restart (and the leader change) is in the schedule and its seed, and
// the seed replays it.
func TestCrashAfterWriteRestartsCold(t *testing.T) {
	o := serverOptions(t)
	if res, err := explore.Run(t.Context(), generatedScenario(true), o); err != nil || res.Violation != nil {
		t.Fatalf("without crashes: want no violation, got %v, %v", err, res.Violation)
	}
	for _, leader := range []bool{false, true} {
		o := serverOptions(t)
		o.Crashes, o.LeaderChange = 1, leader
		res, err := explore.Run(t.Context(), generatedScenario(true), o)
		if err != nil {
			t.Fatal(err)
		}
		v := res.Violation
		if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") ||
			!strings.Contains(v.String(), "crashed after write 1: restarted with a cold cache") || !strings.HasSuffix(v.Seed, "#1") {
			t.Fatalf("leader change %t: want the leaked Gizmo after a restart at write 1, got:\n%v", leader, v)
		}
		t.Logf("found after %d schedules:\n%s", v.Schedules, v)
		o.Replay = v.Seed
		again, err := explore.Run(t.Context(), generatedScenario(true), o)
		if err != nil || again.Violation == nil || again.Violation.Message != v.Message {
			t.Fatalf("replay of %q: got %v, %v", v.Seed, err, again.Violation)
		}
		o.Replay = strings.TrimSuffix(v.Seed, "#1") + "#1L"
		failover, err := explore.Run(t.Context(), generatedScenario(true), o)
		if err != nil || failover.Violation == nil || !strings.Contains(failover.Violation.String(), "a standby manager") {
			t.Fatalf("replay of %q: got %v, %v", o.Replay, err, failover.Violation)
		}
	}
	o.Crashes, o.LeaderChange = 2, true
	if res, err := explore.Run(t.Context(), generatedScenario(false), o); err != nil || res.Violation != nil {
		t.Fatalf("fixed name, 2 crashes or leader changes: want no violation, got %v, %v", err, res.Violation)
	}
}

// A cached read after a cold restart never sees a version from before it.
func TestColdCacheAfterRestart(t *testing.T) {
	var reads []string
	s := gizmoScenario(gizmoReconciler{blind: true})
	s.Reconcilers[0].New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			w := &testv1.Widget{}
			if err := c.Get(ctx, req.NamespacedName, w); err != nil {
				return reconcile.Result{}, err
			}
			reads = append(reads, w.Status.Phase)
			if w.Status.Phase == "" {
				base := w.DeepCopy()
				w.Status.Phase = "one"
				return reconcile.Result{}, c.Status().Patch(ctx, w, client.MergeFrom(base))
			}
			return reconcile.Result{}, nil
		})
	}
	o := serverOptions(t)
	o.Replay = "widget:ns/w@0#1 widget:ns/w@3"
	if _, err := explore.Run(t.Context(), s, o); err != nil {
		t.Fatal(err)
	}
	if len(reads) < 2 || reads[1] != "one" {
		t.Fatalf("the read after the restart saw phase %q, want the write before it (%q)", reads, "one")
	}
	reads = nil
	o.Replay = "widget:ns/w@0 widget:ns/w@3"
	if _, err := explore.Run(t.Context(), s, o); err != nil {
		t.Fatal(err)
	}
	if len(reads) < 2 || reads[1] != "" {
		t.Fatalf("without a restart the second read saw %q, want the stale empty phase", reads)
	}
}

// A crash the violation does not need is minimised away: the search
// tries the crash first (after the counter's first write), and the
// invariant, which never holds, breaks without it.
func TestMinimiseDropsNeedlessCrash(t *testing.T) {
	o := serverOptions(t)
	o.Crashes = 1
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "counter", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &counter{c: c, writes: 2} }}},
		Objects:   []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Invariant: func(context.Context, client.Reader) error { return errors.New("never holds") },
	}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || strings.Contains(v.Seed, "#") {
		t.Fatalf("want the user invariant broken without a crash in the seed, got:\n%v", v)
	}
	if v.Schedules != 1 {
		t.Fatalf("found after %d schedules, want the first, which crashes", v.Schedules)
	}
}
