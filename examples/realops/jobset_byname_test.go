package realops

import (
	"context"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	jobsetcontrollers "sigs.k8s.io/jobset/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestJobSetDeletesRecreatedJobsByName plays, on the real server and
// without the explorer, what reading JobSet's deleteJobs suggests and the
// searches' bounds do not reach (examples/realops/README.md, JobSet): a
// restart deletes the earlier attempt's Jobs by name, with no UID
// precondition, so a process whose Job informer still lists an earlier
// attempt's Job (a new leader whose cache lags) deletes the Job of the
// current attempt that has taken its name.
func TestJobSetDeletesRecreatedJobsByName(t *testing.T) {
	env := startJobSet(t)
	ctx := t.Context()
	if err := env.Client.Create(ctx, helloJobSet()); err != nil {
		t.Fatal(err)
	}
	key := types.NamespacedName{Namespace: jobsetNS, Name: "hello"}
	c := &ownerIndexClient{Client: env.Client}
	leader := jobsetcontrollers.NewJobSetReconciler(c, env.Client.Scheme(), record.NewFakeRecorder(100))
	reconcileOnce := func(r reconcile.Reconciler, what string) {
		t.Helper()
		if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	reconcileOnce(leader, "first reconcile") // creates the Jobs of attempt 0
	before := &batchv1.JobList{}             // what a lagging informer still holds later
	if err := c.List(ctx, before, client.InNamespace(jobsetNS), client.MatchingFields{".metadata.controller": "hello"}); err != nil || len(before.Items) != 2 {
		t.Fatalf("after the first reconcile: %d Jobs, %v", len(before.Items), err)
	}
	job := &batchv1.Job{}
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: jobsetNS, Name: "hello-workers-0"}, job); err != nil {
		t.Fatal(err)
	}
	if err := failJob(ctx, env.Client, job); err != nil { // the Job controller
		t.Fatal(err)
	}
	reconcileOnce(leader, "the restart")        // status.restarts 1
	reconcileOnce(leader, "deleting attempt 0") // foreground deletes
	for _, j := range before.Items {            // the garbage collector
		patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))
		if err := env.Client.Patch(ctx, &j, patch); client.IgnoreNotFound(err) != nil {
			t.Fatal(err)
		}
	}
	reconcileOnce(leader, "creating attempt 1")
	current := &batchv1.JobList{}
	if err := c.List(ctx, current, client.InNamespace(jobsetNS), client.MatchingFields{".metadata.controller": "hello"}); err != nil || len(current.Items) != 2 {
		t.Fatalf("after the restart: %d Jobs, %v", len(current.Items), err)
	}
	for _, j := range current.Items {
		if j.Labels["jobset.sigs.k8s.io/restart-attempt"] != "1" || j.DeletionTimestamp != nil {
			t.Fatalf("after the restart, Job %s: attempt %s, deleting %v", j.Name, j.Labels["jobset.sigs.k8s.io/restart-attempt"], j.DeletionTimestamp != nil)
		}
	}
	// A new leader: its JobSet read is current (restarts 1), its Job list
	// is still the one from before the failure.
	c.stale = before
	reconcileOnce(jobsetcontrollers.NewJobSetReconciler(c, env.Client.Scheme(), record.NewFakeRecorder(100)), "the new leader's reconcile")
	deleted := 0
	for _, j := range current.Items {
		now := &batchv1.Job{}
		if err := env.Client.Get(ctx, client.ObjectKeyFromObject(&j), now); err != nil {
			t.Fatal(err)
		}
		if now.UID == j.UID && now.DeletionTimestamp != nil {
			deleted++
		}
	}
	if deleted == 0 {
		t.Fatalf("the new leader deleted no Job of attempt 1: JobSet no longer deletes by name; update examples/realops/README.md")
	}
	t.Logf("the new leader, from a Job list of attempt 0, deleted %d of the 2 running Jobs of attempt 1", deleted)
}

// ownerIndexClient serves JobSet's List of Jobs by its field index
// (.metadata.controller, which the server does not serve) by listing the
// namespace and keeping the Jobs whose controller owner has that name;
// with stale set, it answers the next such List with stale instead, as an
// informer that has not seen the events since.
type ownerIndexClient struct {
	client.Client
	stale *batchv1.JobList
}

func (c *ownerIndexClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	jobs, ok := list.(*batchv1.JobList)
	o := (&client.ListOptions{}).ApplyOptions(opts)
	if !ok || o.FieldSelector == nil {
		return c.Client.List(ctx, list, opts...)
	}
	owner, found := o.FieldSelector.RequiresExactMatch(".metadata.controller")
	if !found {
		return c.Client.List(ctx, list, opts...)
	}
	if c.stale != nil {
		c.stale.DeepCopyInto(jobs)
		c.stale = nil
		return nil
	}
	if err := c.Client.List(ctx, jobs, client.InNamespace(o.Namespace)); err != nil {
		return err
	}
	jobs.Items = slices.DeleteFunc(jobs.Items, func(j batchv1.Job) bool {
		ref := metav1.GetControllerOf(&j)
		return ref == nil || ref.Kind != "JobSet" || ref.Name != owner
	})
	return nil
}

// jobsetByNameSeed is the schedule of TestJobSetDeletesRecreatedJobsByName
// for the explorer: the first reconcile, the Job controller's failure, the
// restart, the deletes, the collector on both Jobs, the creates of attempt
// 1 and a leader change after them (#2L), then the new leader's reconcile
// with its Job List 7 informer points behind (before the failure).
const jobsetByNameSeed = "jobset:jobs/hello@0,0,0 !fail-job jobset:jobs/hello@0,0 jobset:jobs/hello@0,0,0 " +
	"gc:jobs/hello-workers-0@0 gc:jobs/hello-workers-1@0 jobset:jobs/hello@0,0,0#2L jobset:jobs/hello@0,7,0"

// TestJobSetDeletesByNameReplay: the explorer, given that schedule (8
// chosen steps, the action among them, as Options.Depth counts them, and
// a lag of 7: past the default bounds and deepening level 1), reports the
// deletes as `no delete of own creation`. (It once reported,
// first, a `no lost write` on metadata.finalizers that was a false alarm of
// the explorer, which kept a field's writer per object name across a
// deletion and a create of the same name; it keeps it per object now:
// TestLostWriteOfADeletedObject.)
func TestJobSetDeletesByNameReplay(t *testing.T) {
	env := startJobSet(t)
	s := jobsetScenario(env)
	s.Actions = s.Actions[:1] // fail-job
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true,
		Versions: 8, StaleReads: 8, Replay: jobsetByNameSeed})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantOwnDelete) || !strings.Contains(v.String(), "Job jobs/hello-workers-0") {
		t.Fatalf("want the new leader's delete of the attempt-1 Jobs, got:\n%v", v)
	}
	// The count examples/realops/README.md gives: the seed's steps, the
	// action's included, as the report says.
	if n := len(strings.Fields(jobsetByNameSeed)); v.Chosen() != n || n != 8 || !strings.Contains(v.String(), "(8 chosen steps") {
		t.Fatalf("want the report's schedule of the seed's 8 chosen steps, got %d (seed %d):\n%v", v.Chosen(), n, v)
	}
	// The new leader's stale Job list goes through the informer of
	// JobSet's field index on Jobs, which its cache ran before the
	// election: one API server can serve it.
	if strings.Contains(v.String(), "several API servers") {
		t.Fatalf("want no read that needs several API servers, got:\n%v", v)
	}
	t.Logf("%s", v)
}
