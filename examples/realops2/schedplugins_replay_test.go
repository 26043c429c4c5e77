package realops2

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedcontrollers "sigs.k8s.io/scheduler-plugins/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestPodGroupFailedSetBackToRunning plays, on the real server and without
// the explorer, what reading the PodGroup controller suggests and the
// searches' bounds do not reach (examples/realops/README.md,
// scheduler-plugins): its status write is a blind merge patch of what its
// cache read, so a new leader whose cache lags (an API server whose watch
// cache is behind) sets a Failed PodGroup, a terminal phase, back to
// Running, until its cache sees Pod b's failure.
func TestPodGroupFailedSetBackToRunning(t *testing.T) {
	env := startSched(t)
	ctx := t.Context()
	s := schedScenario()
	for _, o := range s.Objects {
		if err := env.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string) {
		t.Helper()
		for _, a := range s.Actions {
			if a.Name == name {
				if err := a.Run(ctx, env.Client); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return
			}
		}
		t.Fatalf("no action %s", name)
	}
	key := types.NamespacedName{Namespace: schedNS, Name: "pg"}
	reconcileOnce := func(r reconcile.Reconciler, want schedv1alpha1.PodGroupPhase) {
		t.Helper()
		if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
		pg := &schedv1alpha1.PodGroup{}
		if err := env.Client.Get(ctx, key, pg); err != nil || pg.Status.Phase != want {
			t.Fatalf("PodGroup %s at phase %q, want %q (%v)", key, pg.Status.Phase, want, err)
		}
	}
	run("a-Running")
	run("b-Running")
	leader := &schedcontrollers.PodGroupReconciler{Client: env.Client, Scheme: env.Client.Scheme()}
	reconcileOnce(leader, schedv1alpha1.PodGroupPending)
	reconcileOnce(leader, schedv1alpha1.PodGroupScheduling)
	lag := &lagClient{Client: env.Client, pg: &schedv1alpha1.PodGroup{}, pods: &corev1.PodList{}}
	if err := errors.Join(env.Client.Get(ctx, key, lag.pg), env.Client.List(ctx, lag.pods, client.InNamespace(schedNS))); err != nil {
		t.Fatal(err) // what a lagging informer still holds later
	}
	reconcileOnce(leader, schedv1alpha1.PodGroupRunning)
	run("b-Failed")
	reconcileOnce(leader, schedv1alpha1.PodGroupFailed) // terminal: the controller skips it from now on
	newLeader := &schedcontrollers.PodGroupReconciler{Client: lag, Scheme: env.Client.Scheme()}
	reconcileOnce(newLeader, schedv1alpha1.PodGroupRunning) // the bug: Failed set back
}

// lagClient answers Gets of PodGroups and Lists of Pods with what pg and
// pods held, as informers that have not seen the events since.
type lagClient struct {
	client.Client
	pg   *schedv1alpha1.PodGroup
	pods *corev1.PodList
}

func (c *lagClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if pg, ok := obj.(*schedv1alpha1.PodGroup); ok {
		c.pg.DeepCopyInto(pg)
		return nil
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

func (c *lagClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if pods, ok := list.(*corev1.PodList); ok {
		c.pods.DeepCopyInto(pods)
		return nil
	}
	return c.Client.List(ctx, list, opts...)
}

// TestPodGroupFailedSetBackReplay: the explorer, given that schedule (8
// chosen steps, a leader change after the Failed write, the new leader's
// PodGroup read two versions behind and its Pod List one), reports it as a
// lost write of status.phase, marked as needing a lagging API server.
func TestPodGroupFailedSetBackReplay(t *testing.T) {
	env := startSched(t)
	res, err := explore.Run(t.Context(), schedScenario(), explore.Options{Backend: explore.Server(env), Versions: 8, StaleReads: 4,
		Replay: "!a-Running !b-Running podgroup:sched/pg@0,0 podgroup:sched/pg@0,0 podgroup:sched/pg@0,0 !b-Failed podgroup:sched/pg@0,0#1L podgroup:sched/pg@2,1"})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if res.Diverged != "" || v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), "PodGroup sched/pg: status.phase") {
		t.Fatalf("want the Failed phase set back reported as a lost write, got (diverged %q):\n%v", res.Diverged, v)
	}
	t.Logf("found:\n%s", v)
}
