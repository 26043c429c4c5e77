package realops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	jobsetv1 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetcontrollers "sigs.k8s.io/jobset/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// startJobSet runs the full API with JobSet's CRD, which the module keeps
// under config/components/crd/bases, not config/crd/bases (start's).
func startJobSet(t *testing.T) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: exploring an operator that owns built-in kinds needs the full API: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), jobsetv1.AddToScheme(scheme)); err != nil {
		t.Fatal(err)
	}
	return testenv.Start(t, testenv.WithFullAPI(), testenv.WithScheme(scheme), testenv.WithTimeout(10*time.Minute),
		testenv.WithCRDDirectory(filepath.Join(moduleDir(t, "sigs.k8s.io/jobset"), "config", "components", "crd", "bases")))
}

// jobsetSetup is main.go's: the two indexes, then setupControllers' two
// reconcilers (the webhooks and the cert manager left out), each given
// mgr.GetClient() one call at a time (serialClient): JobSet creates and
// deletes its Jobs from parallel goroutines (workqueue.ParallelizeUntil),
// and the explorer's client is not safe for concurrent calls.
func jobsetSetup(mgr manager.Manager) error {
	ctx := context.Background()
	if err := jobsetcontrollers.SetupJobSetIndexes(ctx, mgr.GetFieldIndexer()); err != nil {
		return err
	}
	if err := jobsetcontrollers.SetupPodIndexes(ctx, mgr.GetFieldIndexer()); err != nil {
		return err
	}
	c := serialClient{Client: mgr.GetClient(), mu: &sync.Mutex{}}
	if err := jobsetcontrollers.NewJobSetReconciler(c, mgr.GetScheme(), mgr.GetEventRecorderFor("jobset")).SetupWithManager(mgr); err != nil {
		return err
	}
	return jobsetcontrollers.NewPodReconciler(c, mgr.GetScheme(), mgr.GetEventRecorderFor("pod")).SetupWithManager(mgr)
}

// serialClient makes c's calls one at a time.
type serialClient struct {
	client.Client
	mu *sync.Mutex
}

func (c serialClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.Get(ctx, key, obj, opts...)
}

func (c serialClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.List(ctx, list, opts...)
}

func (c serialClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.Create(ctx, obj, opts...)
}

func (c serialClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.Delete(ctx, obj, opts...)
}

func (c serialClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.Update(ctx, obj, opts...)
}

func (c serialClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Client.Patch(ctx, obj, patch, opts...)
}

func (c serialClient) Status() client.SubResourceWriter { return serialStatus{c.Client.Status(), c.mu} }

type serialStatus struct {
	client.SubResourceWriter
	mu *sync.Mutex
}

func (s serialStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.SubResourceWriter.Update(ctx, obj, opts...)
}

func (s serialStatus) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.SubResourceWriter.Patch(ctx, obj, patch, opts...)
}

const jobsetNS = "jobs"

// jobsetScenario is a JobSet of one replicated Job of 2 replicas that may
// restart once, set up as main.go does, kube-controller-manager's garbage
// collector as a reconciler of Jobs, and three user actions, each at any
// point: the Job controller's report that Job hello-workers-0 failed, a
// suspend, and a delete.
func jobsetScenario(env *testenv.Env) explore.Scenario {
	var schedule *explore.Source
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error {
			if src := explore.SourceOf(mgr.GetClient()); src != schedule { // a new schedule, not a crash restart
				schedule = src
				if err := releaseResetJobs(env.Client); err != nil {
					return err
				}
			}
			return jobsetSetup(mgr)
		},
		Reconcilers: []explore.Reconciler{jobGC(func() client.Object { return &jobsetv1.JobSet{} })},
		Objects:     []client.Object{helloJobSet()},
		Actions: []explore.Action{{Name: "fail-job", Run: func(ctx context.Context, c client.Client) error { // the Job controller
			job := &batchv1.Job{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: jobsetNS, Name: "hello-workers-0"}, job); err != nil {
				return client.IgnoreNotFound(err)
			}
			return failJob(ctx, c, job)
		}}, {Name: "suspend", Run: func(ctx context.Context, c client.Client) error {
			js := &jobsetv1.JobSet{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: jobsetNS, Name: "hello"}, js); err != nil {
				return err
			}
			js.Spec.Suspend = ptr.To(true)
			return c.Update(ctx, js)
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, &jobsetv1.JobSet{ObjectMeta: metav1.ObjectMeta{Namespace: jobsetNS, Name: "hello"}})
		}}},
		Invariant: jobsetInvariant,
	}
}

// helloJobSet is a JobSet as its defaulting webhook leaves it.
func helloJobSet() *jobsetv1.JobSet {
	return &jobsetv1.JobSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: jobsetNS, Name: "hello"},
		Spec: jobsetv1.JobSetSpec{
			ReplicatedJobs: []jobsetv1.ReplicatedJob{{Name: "workers", Replicas: 2, Template: batchv1.JobTemplateSpec{
				Spec: batchv1.JobSpec{Parallelism: ptr.To(int32(1)), Completions: ptr.To(int32(1)),
					CompletionMode: ptr.To(batchv1.IndexedCompletion), // the webhook's defaults from here
					Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure,
						Containers: []corev1.Container{{Name: "worker", Image: "busybox:1.37"}}}}}}}},
			FailurePolicy: &jobsetv1.FailurePolicy{MaxRestarts: 1},
			SuccessPolicy: &jobsetv1.SuccessPolicy{Operator: jobsetv1.OperatorAll},
			StartupPolicy: &jobsetv1.StartupPolicy{StartupPolicyOrder: jobsetv1.AnyOrder},
			Network:       &jobsetv1.Network{EnableDNSHostnames: ptr.To(true), PublishNotReadyAddresses: ptr.To(true)},
		},
	}
}

// releaseResetJobs removes the finalizers of the Jobs left terminating in
// the scenario's namespace at the start of a schedule. The explorer's reset
// deletes each object the previous schedule wrote without a propagation
// policy, and batch/v1 Jobs default to orphan propagation: the server adds
// the orphan finalizer, which only kube-controller-manager's garbage
// collector removes, so without this every other schedule would start with
// the previous one's Jobs, terminating, named as the new JobSet's
// (examples/realops/README.md, JobSet).
func releaseResetJobs(c client.Client) error { return releaseJobsIn(c, jobsetNS) }

// releaseJobsIn removes the finalizers of the Jobs left terminating in ns.
func releaseJobsIn(c client.Client, ns string) error {
	ctx := context.Background()
	jobs := &batchv1.JobList{}
	if err := c.List(ctx, jobs, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range jobs.Items {
		if j := &jobs.Items[i]; j.DeletionTimestamp != nil && len(j.Finalizers) > 0 {
			patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))
			if err := c.Patch(ctx, j, patch); client.IgnoreNotFound(err) != nil {
				return err
			}
		}
	}
	return nil
}

// failJob writes what the Job controller writes when a Job's pods have
// exhausted its backoff limit.
func failJob(ctx context.Context, c client.Client, job *batchv1.Job) error {
	at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) // fixed: the same state in every schedule
	if job.Status.StartTime == nil {
		job.Status.StartTime = &at
	}
	job.Status.Failed = 1
	for _, t := range []batchv1.JobConditionType{batchv1.JobFailureTarget, batchv1.JobFailed} {
		job.Status.Conditions = append(job.Status.Conditions, batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue,
			Reason: batchv1.JobReasonBackoffLimitExceeded, Message: "Job has reached the specified backoff limit",
			LastProbeTime: at, LastTransitionTime: at})
	}
	return c.Status().Update(ctx, job)
}

// jobGC plays kube-controller-manager's garbage collector for Jobs, which
// the test server lacks: it removes the foregroundDeletion finalizer of a
// Job being deleted (JobSet and Katib's Trial controller delete with
// foreground propagation; no Pods block it here), and deletes a Job whose
// controller owner, of newOwner's kind, is gone, as the collector does
// after a live lookup of the owner.
func jobGC(newOwner func() client.Object) explore.Reconciler {
	return explore.Reconciler{Name: "gc", For: &batchv1.Job{},
		New: func(c client.Client, api client.Reader) reconcile.Reconciler {
			return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				job := &batchv1.Job{}
				if err := c.Get(ctx, req.NamespacedName, job); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				if job.DeletionTimestamp != nil {
					if i := slices.Index(job.Finalizers, metav1.FinalizerDeleteDependents); i >= 0 {
						job.Finalizers = slices.Delete(job.Finalizers, i, i+1)
						return reconcile.Result{}, client.IgnoreNotFound(c.Update(ctx, job))
					}
					return reconcile.Result{}, nil
				}
				owner := metav1.GetControllerOf(job)
				if owner == nil {
					return reconcile.Result{}, nil
				}
				o := newOwner()
				err := api.Get(ctx, client.ObjectKey{Namespace: job.Namespace, Name: owner.Name}, o)
				if apierrors.IsNotFound(err) || err == nil && o.GetUID() != owner.UID {
					return reconcile.Result{}, client.IgnoreNotFound(c.Delete(ctx, job, client.Preconditions{UID: &job.UID},
						client.PropagationPolicy(metav1.DeletePropagationBackground)))
				}
				return reconcile.Result{}, err
			})
		}}
}

// jobsetInvariant is what JobSet promises of a running JobSet: for each
// replica of each replicated Job, one Job of the current restart attempt,
// not being deleted, suspended as the JobSet is. A finished or deleted
// JobSet promises nothing here.
func jobsetInvariant(ctx context.Context, r client.Reader) error {
	js := &jobsetv1.JobSet{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: jobsetNS, Name: "hello"}, js); err != nil {
		return client.IgnoreNotFound(err)
	}
	for _, c := range js.Status.Conditions {
		if (c.Type == string(jobsetv1.JobSetCompleted) || c.Type == string(jobsetv1.JobSetFailed)) && c.Status == metav1.ConditionTrue {
			return nil
		}
	}
	jobs := &batchv1.JobList{}
	if err := r.List(ctx, jobs, client.InNamespace(jobsetNS), client.MatchingLabels{jobsetv1.JobSetNameKey: "hello"}); err != nil {
		return err
	}
	for _, rj := range js.Spec.ReplicatedJobs {
		for i := range int(rj.Replicas) {
			name := fmt.Sprintf("hello-%s-%d", rj.Name, i)
			idx := slices.IndexFunc(jobs.Items, func(j batchv1.Job) bool { return j.Name == name })
			if idx < 0 {
				return fmt.Errorf("JobSet %s/hello (restarts %d) has no Job %s", jobsetNS, js.Status.Restarts, name)
			}
			job := jobs.Items[idx]
			attempt, _ := strconv.Atoi(job.Labels["jobset.sigs.k8s.io/restart-attempt"])
			switch {
			case job.DeletionTimestamp != nil:
				return fmt.Errorf("JobSet %s/hello: its Job %s is being deleted", jobsetNS, name)
			case int32(attempt) != js.Status.Restarts:
				return fmt.Errorf("JobSet %s/hello (restarts %d): its Job %s is of restart attempt %d", jobsetNS, js.Status.Restarts, name, attempt)
			case ptr.Deref(job.Spec.Suspend, false) != ptr.Deref(js.Spec.Suspend, false):
				return fmt.Errorf("JobSet %s/hello (suspend %v): its Job %s has suspend %v", jobsetNS, ptr.Deref(js.Spec.Suspend, false), name, ptr.Deref(job.Spec.Suspend, false))
			}
		}
	}
	return nil
}

func TestExploreJobSet(t *testing.T) {
	env := startJobSet(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(jobsetScenario(env)),
		explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestJobSetDeepening searches the same scenario with the default bounds,
// deepened while each level is exhausted, and no crash: Deepen, which
// runs no fault phase after the deepening (the default options with a
// budget do, and find the deletes by name: TestJobSetByNameDeepening).
func TestJobSetDeepening(t *testing.T) {
	env := startJobSet(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(jobsetScenario(env)),
		explore.Options{Backend: explore.Server(env), Budget: 5 * time.Minute, Deepen: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestJobSetRestartsInTheModel checks that the scenario reaches what it is
// for: one schedule (the first reconcile creates the Jobs, then the Job
// controller reports hello-workers-0 failed) ends, once the garbage
// collector has let the old Jobs go, at restart 1 with both Jobs created
// again, so the searches above explore the restart and their invariant is
// not vacuous. The schedule is run twice (a replay) and must make the same
// writes both times: without releaseResetJobs the second run began with
// the first run's Jobs and created none.
func TestJobSetRestartsInTheModel(t *testing.T) {
	env := startJobSet(t)
	s := jobsetScenario(env)
	s.Actions = s.Actions[:1] // fail-job
	s.Invariant = func(ctx context.Context, r client.Reader) error {
		js := &jobsetv1.JobSet{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: jobsetNS, Name: "hello"}, js); err != nil {
			return err
		}
		if js.Status.Restarts != 1 {
			return fmt.Errorf("JobSet %s/hello at restarts %d, want 1", jobsetNS, js.Status.Restarts)
		}
		return jobsetInvariant(ctx, r)
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Replay: "jobset:jobs/hello@0 !fail-job"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Diverged != "" { // diverged: the second run began with the first's Jobs
		t.Fatalf("violation %v, diverged %q", res.Violation, res.Diverged)
	}
}
