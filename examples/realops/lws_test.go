package realops

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	lwsv1 "sigs.k8s.io/lws/api/leaderworkerset/v1"
	"sigs.k8s.io/lws/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreLeaderWorkerSet(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	res, err := explore.Run(t.Context(), lwsScenario(), explore.Options{Backend: explore.Server(env), Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Violations { // the operator's bug, if the minute reaches it: a stale read resets the rollout
		if !v.Broke(explore.InvariantLostWrite) || len(v.Also) > 0 ||
			!strings.HasPrefix(v.Message, "StatefulSet lws/hello: spec.updateStrategy.rollingUpdate.partition written by step ") {
			t.Fatalf("want no violation but the partition reset, got:\n%v", v)
		}
		t.Logf("found after %d schedules in %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v)
	}
}

// lwsScenario is a LeaderWorkerSet of 2 groups of 2, set up as main.go
// does, and two user actions, each at any point: a new worker image, and a
// kubectl replace --force of the leader StatefulSet.
func lwsScenario() explore.Scenario {
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error { // cmd/main.go's, without the webhooks and the cert manager
			if err := controllers.SetupIndexes(mgr.GetFieldIndexer()); err != nil {
				return err
			}
			if err := controllers.NewLeaderWorkerSetReconciler(mgr.GetClient(), mgr.GetScheme(),
				mgr.GetEventRecorderFor("leaderworkerset")).SetupWithManager(mgr); err != nil {
				return err
			}
			return controllers.NewPodReconciler(mgr.GetClient(), mgr.GetScheme(),
				mgr.GetEventRecorderFor("leaderworkerset"), nil).SetupWithManager(mgr)
		},
		Objects: []client.Object{&lwsv1.LeaderWorkerSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: "lws", Name: "hello"},
			Spec: lwsv1.LeaderWorkerSetSpec{ // with what its defaulting webhook adds
				Replicas: ptr.To(int32(2)), StartupPolicy: lwsv1.LeaderCreatedStartupPolicy,
				LeaderWorkerTemplate: lwsv1.LeaderWorkerTemplate{Size: ptr.To(int32(2)),
					WorkerTemplate: podTemplate("worker"), RestartPolicy: lwsv1.RecreateGroupOnPodRestart},
				RolloutStrategy: lwsv1.RolloutStrategy{Type: lwsv1.RollingUpdateStrategyType,
					RollingUpdateConfiguration: &lwsv1.RollingUpdateConfiguration{
						MaxUnavailable: intstr.FromInt32(1), MaxSurge: intstr.FromInt32(0), Partition: ptr.To(int32(0))}},
				NetworkConfig: &lwsv1.NetworkConfig{SubdomainPolicy: ptr.To(lwsv1.SubdomainShared)},
			}}},
		Actions: []explore.Action{{Name: "new-image", Run: func(ctx context.Context, c client.Client) error {
			lws := &lwsv1.LeaderWorkerSet{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "lws", Name: "hello"}, lws); err != nil {
				return err
			}
			lws.Spec.LeaderWorkerTemplate.WorkerTemplate.Spec.Containers[0].Image = "rayproject/ray:2.47.0"
			return c.Update(ctx, lws)
		}}, {Name: "replace-sts", Run: func(ctx context.Context, c client.Client) error { // kubectl replace --force
			sts := &appsv1.StatefulSet{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "lws", Name: "hello"}, sts); err != nil {
				return client.IgnoreNotFound(err)
			}
			if err := c.Delete(ctx, sts); err != nil {
				return err
			}
			sts.ResourceVersion, sts.UID, sts.ManagedFields = "", "", nil
			return c.Create(ctx, sts)
		}}},
	}
}

// The schedule an earlier explorer reported as a lost write on LWS's own
// apply (docs/explore-your-operator.md): step 1 applies the StatefulSet,
// the user changes the image, step 3 reads the StatefulSet from a cache
// that has not seen the apply and applies the new template. Replayed, it
// breaks no invariant: the apply restates its own reconcile's newest
// decision.
func TestLeaderWorkerSetOwnApplyReplay(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	res, err := explore.Run(t.Context(), lwsScenario(), explore.Options{Backend: explore.Server(env),
		Replay: "leaderworkerset:lws/hello@0,0,0,0,1 !new-image leaderworkerset:lws/hello@0,1,0,0,0,0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("LWS's apply restating its newest decision reported:\n%s", res.Violation)
	}
	if res.Diverged != "" {
		t.Fatalf("the replay's two runs differ: %s", res.Diverged)
	}
}

// Issue 82's schedule: the user changes the image and replaces the
// StatefulSet (kubectl replace --force, re-created from v2 as read); step
// 4 reads the StatefulSet v2 from a stale cache and applies the new
// template over the re-created v4, whose fields hold v2's values. It
// overwrites nothing it had not seen, and the drain, with fresh reads,
// applies the same template: no violation.
func TestLeaderWorkerSetReplaceReplay(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	res, err := explore.Run(t.Context(), lwsScenario(), explore.Options{Backend: explore.Server(env),
		Replay: "leaderworkerset:lws/hello@0,0,0,0,0,0 !new-image !replace-sts leaderworkerset:lws/hello@0,2,0,0,0,0,0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a write over the values its writer saw reported:\n%s", res.Violation)
	}
	if res.Diverged != "" {
		t.Fatalf("the replay's two runs differ: %s", res.Diverged)
	}
}

// Issue 82's second schedule: step 1 applies the StatefulSet (v2); the
// user changes the image and replaces the StatefulSet (re-created as v4
// from v2, LWS's own apply); step 4 reads the StatefulSet's absence (v1)
// from a stale cache and applies the new template over v4. The values it
// replaces are the ones LWS's own apply set on the earlier object under
// the name, and the same schedule with step 4's reads fresh applies the
// same template (getUpdatedRevision finds the LWS changed, and
// SSAWithStatefulset applies its template whatever the StatefulSet
// held): LWS's steady state owns those fields, no violation.
func TestLeaderWorkerSetReplaceFromAbsenceReplay(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	res, err := explore.Run(t.Context(), lwsScenario(), explore.Options{Backend: explore.Server(env),
		Replay: "leaderworkerset:lws/hello@0,0,0,0,1 !new-image !replace-sts leaderworkerset:lws/hello@0,3,0,0,0,0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("an apply from a read of absence over LWS's own values, as a fresh read applies, reported:\n%s", res.Violation)
	}
	if res.Diverged != "" {
		t.Fatalf("the replay's two runs differ: %s", res.Diverged)
	}
}

// LWS's partition reset, a lost write on the real server: step 3 begins
// the new image's rolling update (partition 2, v3); the user replaces the
// StatefulSet (re-created from v3 as v5, partition 2); step 5 reads the
// StatefulSet from a cache that has seen the delete and not the create
// (v4, absent), takes it for one being created
// (rollingUpdateParameters: sts == nil, partition 0,
// leaderworkerset_controller.go:267) and applies partition 0 over v5. The
// same schedule with step 5's reads fresh applies partition 1 (the
// rollout's next step, maxUnavailable 1): the stale read reset the
// rollout of the re-created StatefulSet, whose groups, where its Pods
// outlive the replace, are all updated at once.
func TestLeaderWorkerSetPartitionResetReplay(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	res, err := explore.Run(t.Context(), lwsScenario(), explore.Options{Backend: explore.Server(env), Versions: 8,
		Replay: "leaderworkerset:lws/hello@0,0,0,0,0,0 !new-image leaderworkerset:lws/hello@0,0,0,0,0,0,0 !replace-sts leaderworkerset:lws/hello@0,1,0,0,0,0"})
	if err != nil {
		t.Fatal(err)
	}
	const want = "StatefulSet lws/hello: spec.updateStrategy.rollingUpdate.partition written by step 4 (v5) overwritten by step 5 (v6), which had seen only v4"
	if v := res.Violation; v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.HasPrefix(v.Message, want) || v.Rank != 2 {
		t.Fatalf("want %q, ranked 2 (a decision lost), got:\n%v", want, v)
	}
	if res.Diverged != "" {
		t.Fatalf("the replay's two runs differ: %s", res.Diverged)
	}
}
