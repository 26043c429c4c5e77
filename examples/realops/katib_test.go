package realops

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	commonv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/common/v1beta1"
	experimentsv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/experiments/v1beta1"
	trialsv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/trials/v1beta1"
	api_pb "github.com/kubeflow/katib/pkg/apis/manager/v1beta1"
	"github.com/kubeflow/katib/pkg/controller.v1beta1/consts"
	"github.com/kubeflow/katib/pkg/controller.v1beta1/trial"
	trialutil "github.com/kubeflow/katib/pkg/controller.v1beta1/trial/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/viper"
	"google.golang.org/grpc"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/yaml"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

const katibNS = "katib"

// startKatib runs the full API with Katib's Trial CRD and a fake Katib DB
// manager on loopback (fakeKatibDB).
func startKatib(t *testing.T) *testenv.Env {
	t.Helper()
	return startKatibWith(t, trialsv1beta1.AddToScheme, "trial.yaml")
}

// startKatibWith runs the full API with the Katib CRDs of files (the module
// keeps its CRDs, with a kustomization.yaml, in
// manifests/v1beta1/components/crd, not config/crd/bases), a scheme of
// addToScheme's kinds, and the fake DB manager. Each CRD's schema is an
// object with x-kubernetes-preserve-unknown-fields at its root: the server
// prunes nothing, and testenv's status schema check passes it.
func startKatibWith(t *testing.T, addToScheme func(*runtime.Scheme) error, files ...string) *testenv.Env {
	t.Helper()
	const module = "github.com/kubeflow/katib"
	env := startWith(t, module, addToScheme, func() testenv.Option {
		var crds []*apiextensionsv1.CustomResourceDefinition
		dir := filepath.Join(moduleDir(t, module), "manifests", "v1beta1", "components", "crd")
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := yaml.Unmarshal(data, crd); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			crds = append(crds, crd)
		}
		return testenv.WithCRDs(crds...)
	})
	fakeKatibDB(t)
	return env
}

// fakeKatibDB stands for katib-db-manager, which the Trial controller asks
// over gRPC for a Trial's observation log when its Job has succeeded and
// tells to delete it when the Trial is deleted (its finalizer
// clean-metrics-in-db). It answers every Trial with the log the metrics
// collector would have reported: one value of the objective metric. The
// controller dials consts.DefaultKatibDBManagerService{IP,Namespace,Port}
// (read from the environment at init; variables), pointed here.
func fakeKatibDB(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	api_pb.RegisterDBManagerServer(srv, katibDB{})
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	ip, ns, port := consts.DefaultKatibDBManagerServiceIP, consts.DefaultKatibDBManagerServiceNamespace, consts.DefaultKatibDBManagerServicePort
	host, p, _ := net.SplitHostPort(lis.Addr().String())
	consts.DefaultKatibDBManagerServiceIP, consts.DefaultKatibDBManagerServiceNamespace, consts.DefaultKatibDBManagerServicePort = host, "", p
	t.Cleanup(func() {
		consts.DefaultKatibDBManagerServiceIP, consts.DefaultKatibDBManagerServiceNamespace, consts.DefaultKatibDBManagerServicePort = ip, ns, port
	})
}

type katibDB struct {
	api_pb.UnimplementedDBManagerServer
}

func (katibDB) GetObservationLog(_ context.Context, req *api_pb.GetObservationLogRequest) (*api_pb.GetObservationLogReply, error) {
	return &api_pb.GetObservationLogReply{ObservationLog: &api_pb.ObservationLog{MetricLogs: []*api_pb.MetricLog{{
		TimeStamp: "2026-01-01T00:00:00Z", Metric: &api_pb.Metric{Name: req.MetricName, Value: "0.25"}}}}}, nil
}

func (katibDB) DeleteObservationLog(context.Context, *api_pb.DeleteObservationLogRequest) (*api_pb.DeleteObservationLogReply, error) {
	return &api_pb.DeleteObservationLogReply{}, nil
}

func (katibDB) ReportObservationLog(context.Context, *api_pb.ReportObservationLogRequest) (*api_pb.ReportObservationLogReply, error) {
	return &api_pb.ReportObservationLogReply{}, nil
}

// katibSetup is katib-controller's main.go for the Trial controller: the
// trial resources of its default config (batch/v1 Job) in viper, then
// trial.Add, which registers the controller's Prometheus collector in
// controller-runtime's registry with MustRegister; the explorer calls
// Setup again for every schedule and crash, so the collector of the
// previous call is unregistered first (a collector with the same
// descriptors stands for it).
//
// trial.Add builds its controller with controller.New and two typed
// watches, source.Kind[*Trial] with a TypedEnqueueRequestForObject[*Trial]
// and source.Kind[*unstructured.Unstructured] (the Job) with a
// TypedEnqueueRequestForOwner, which the explorer's Setup does not read
// (it takes only handler.EventHandler, the builder's: "watch 0 is not a
// Kind source with a handler"). So the controller trial.Add builds is
// caught before the manager gets it, its reconciler (newReconciler's,
// unexported) taken from it, and the same two watches made with the
// builder.
func katibSetup(mgr manager.Manager) error {
	viper.Set(consts.ConfigTrialResources, []schema.GroupVersionKind{batchv1.SchemeGroupVersion.WithKind("Job")})
	metrics.Registry.Unregister(trialutil.NewTrialsCollector(nil, prometheus.NewRegistry()))
	caught := &catchingManager{Manager: mgr}
	if err := trial.Add(caught); err != nil {
		return err
	}
	if len(caught.runnables) != 1 {
		return fmt.Errorf("trial.Add added %d runnables, want its controller", len(caught.runnables))
	}
	do, ok := reflect.ValueOf(caught.runnables[0]).Elem().FieldByName("Do").Interface().(reconcile.Reconciler)
	if !ok {
		return fmt.Errorf("trial.Add's controller %T has no reconciler Do", caught.runnables[0])
	}
	job := &unstructured.Unstructured{}
	job.SetGroupVersionKind(batchv1.SchemeGroupVersion.WithKind("Job"))
	return builder.ControllerManagedBy(mgr).Named(trial.ControllerName).For(&trialsv1beta1.Trial{}).
		Watches(job, handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &trialsv1beta1.Trial{}, handler.OnlyControllerOwner())).
		Complete(do)
}

// catchingManager keeps the runnables added to it instead of adding them.
type catchingManager struct {
	manager.Manager
	runnables []manager.Runnable
}

func (m *catchingManager) Add(r manager.Runnable) error {
	m.runnables = append(m.runnables, r)
	return nil
}

// katibScenario is a Trial as the Experiment controller creates it (a
// batch/v1 Job as its run spec, the default success and failure
// conditions for a Job, a StdOut metrics collector), set up as main.go
// does, kube-controller-manager's garbage collector as a reconciler of
// Jobs, and user actions, each at any point: the Job controller's report
// that the Trial's Job succeeded, and a delete of the Trial (the
// Experiment controller's, or the user's).
func katibScenario(env *testenv.Env) explore.Scenario {
	var schedule *explore.Source
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error {
			if src := explore.SourceOf(mgr.GetClient()); src != schedule { // a new schedule, not a crash restart
				schedule = src
				if err := releaseJobsIn(env.Client, katibNS); err != nil {
					return err
				}
			}
			return katibSetup(mgr)
		},
		Reconcilers: []explore.Reconciler{trialJobGC},
		Objects:     []client.Object{helloTrial()},
		Actions: []explore.Action{{Name: "complete-job", Run: func(ctx context.Context, c client.Client) error { // the Job controller
			job := &batchv1.Job{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, job); err != nil {
				return client.IgnoreNotFound(err)
			}
			return completeJob(ctx, c, job)
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, &trialsv1beta1.Trial{ObjectMeta: metav1.ObjectMeta{Namespace: katibNS, Name: "hello"}})
		}}},
		Invariant: katibInvariant,
	}
}

// helloTrial is a Trial as the Experiment controller creates it from an
// Experiment with a Job trial template (its webhook's defaults filled).
func helloTrial() *trialsv1beta1.Trial {
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Namespace: katibNS, Name: "hello"},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "training-container", Image: "ghcr.io/kubeflow/katib/pytorch-mnist-cpu",
				Command: []string{"python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1", "--lr=0.01"}}}}}},
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(job)
	if err != nil {
		panic(err)
	}
	delete(content, "status")
	return &trialsv1beta1.Trial{
		ObjectMeta: metav1.ObjectMeta{Namespace: katibNS, Name: "hello"},
		Spec: trialsv1beta1.TrialSpec{
			Objective: &commonv1beta1.ObjectiveSpec{Type: commonv1beta1.ObjectiveTypeMaximize, ObjectiveMetricName: "accuracy",
				MetricStrategies: []commonv1beta1.MetricStrategy{{Name: "accuracy", Value: commonv1beta1.ExtractByMax}}},
			ParameterAssignments: []commonv1beta1.ParameterAssignment{{Name: "lr", Value: "0.01"}},
			RunSpec:              &unstructured.Unstructured{Object: content},
			MetricsCollector:     commonv1beta1.MetricsCollectorSpec{Collector: &commonv1beta1.CollectorSpec{Kind: commonv1beta1.StdOutCollector}},
			PrimaryContainerName: "training-container",
			SuccessCondition:     experimentsv1beta1.DefaultJobSuccessCondition,
			FailureCondition:     experimentsv1beta1.DefaultJobFailureCondition,
		},
	}
}

// trialJobGC is the garbage collector for the Jobs of Trials (jobGC).
var trialJobGC = jobGC(func() client.Object { return &trialsv1beta1.Trial{} })

// completeJob writes what the Job controller writes when a Job's one pod
// has succeeded.
func completeJob(ctx context.Context, c client.Client, job *batchv1.Job) error {
	at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) // fixed: the same state in every schedule
	if job.Status.StartTime == nil {
		job.Status.StartTime = &at
	}
	job.Status.CompletionTime = &at
	job.Status.Succeeded = 1
	for _, t := range []batchv1.JobConditionType{batchv1.JobSuccessCriteriaMet, batchv1.JobComplete} {
		job.Status.Conditions = append(job.Status.Conditions, batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue,
			Reason: batchv1.JobReasonCompletionsReached, Message: "Reached expected number of succeeded pods",
			LastProbeTime: at, LastTransitionTime: at})
	}
	return c.Status().Update(ctx, job)
}

// katibInvariant is what the Trial controller promises of a Trial not
// being deleted: while it has not completed, its Job runs (present, not
// being deleted, controlled by this Trial) and has not finished (a
// finished Job completes the Trial); once completed, the Trial's Job is
// gone (retainRun false), and a succeeded Trial has its observation.
func katibInvariant(ctx context.Context, r client.Reader) error {
	return trialInvariant(ctx, r, "hello")
}

// trialInvariant is katibInvariant for the Trial name, whose Job has its
// name (the Experiment controller names a Trial's run spec so).
func trialInvariant(ctx context.Context, r client.Reader, name string) error {
	tr := &trialsv1beta1.Trial{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: name}, tr); err != nil {
		return client.IgnoreNotFound(err)
	}
	if tr.DeletionTimestamp != nil {
		return nil
	}
	job := &batchv1.Job{}
	err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: name}, job)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	exists := err == nil
	switch {
	case tr.IsCompleted() && exists:
		return fmt.Errorf("Trial %s/%s completed (%s) and its Job is still there (deleting %v)", katibNS, name, lastCondition(tr), job.DeletionTimestamp != nil)
	case tr.IsCompleted() && tr.IsSucceeded() && !tr.IsObservationAvailable():
		return fmt.Errorf("Trial %s/%s succeeded with no observation", katibNS, name)
	case tr.IsCompleted():
		return nil
	case !exists:
		return fmt.Errorf("Trial %s/%s (%s) has no Job", katibNS, name, lastCondition(tr))
	case job.DeletionTimestamp != nil:
		return fmt.Errorf("Trial %s/%s (%s): its Job is being deleted", katibNS, name, lastCondition(tr))
	case !metav1.IsControlledBy(job, tr):
		return fmt.Errorf("Trial %s/%s (%s): its Job is not controlled by it", katibNS, name, lastCondition(tr))
	}
	for _, c := range job.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return fmt.Errorf("Trial %s/%s (%s): its Job is %s", katibNS, name, lastCondition(tr), c.Type)
		}
	}
	return nil
}

func lastCondition(tr *trialsv1beta1.Trial) string {
	if t, err := tr.GetLastConditionType(); err == nil {
		return string(t)
	}
	return "no condition"
}

// TestKatibDefaults explores Katib's Trial controller with the default
// options and a budget: the default bounds, deepened while each level is
// exhausted, then the fault phase (a crash or a leader change and a stale
// read after it).
func TestKatibDefaults(t *testing.T) {
	env := startKatib(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(katibScenario(env)), explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestKatibTrialSucceedsInTheModel checks that the scenario reaches what
// it is for, so that the search's invariants are not vacuous: with the
// Job controller's success the only action, the search finds a steady
// state where the Trial has succeeded, with the observation the fake DB
// manager answered, and its Job is gone (the invariant below says it
// must not, and the search must break it).
func TestKatibTrialSucceedsInTheModel(t *testing.T) {
	env := startKatib(t)
	s := katibScenario(env)
	s.Actions = s.Actions[:1] // complete-job
	s.Invariant = func(ctx context.Context, r client.Reader) error {
		tr := &trialsv1beta1.Trial{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, tr); err != nil {
			return err
		}
		err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, &batchv1.Job{})
		if tr.IsSucceeded() && tr.IsObservationAvailable() && apierrors.IsNotFound(err) {
			return errors.New("the Trial succeeded and its Job is gone")
		}
		return nil
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env)})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantUser) || !strings.Contains(v.String(), "the Trial succeeded and its Job is gone") {
		t.Fatalf("want a steady state with the Trial succeeded, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("reached after %d schedules:\n%s", v.Schedules, v)
}
