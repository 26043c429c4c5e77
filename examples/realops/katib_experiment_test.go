package realops

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	commonv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/common/v1beta1"
	experimentsv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/experiments/v1beta1"
	suggestionsv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/suggestions/v1beta1"
	trialsv1beta1 "github.com/kubeflow/katib/pkg/apis/controller/trials/v1beta1"
	"github.com/kubeflow/katib/pkg/controller.v1beta1/consts"
	"github.com/kubeflow/katib/pkg/controller.v1beta1/experiment"
	exputil "github.com/kubeflow/katib/pkg/controller.v1beta1/experiment/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/viper"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// startKatibExperiment runs the full API with Katib's three CRDs
// (Experiment, Suggestion, Trial) and the fake DB manager.
func startKatibExperiment(t *testing.T) *testenv.Env {
	t.Helper()
	return startKatibWith(t, func(s *runtime.Scheme) error {
		return errors.Join(trialsv1beta1.AddToScheme(s), experimentsv1beta1.AddToScheme(s), suggestionsv1beta1.AddToScheme(s))
	}, "experiment.yaml", "suggestion.yaml", "trial.yaml")
}

// katibExperimentSetup is main.go's controller.AddToManager less the
// Suggestion controller (fakeSuggestion plays it): experiment.Add and
// trial.Add, with the default config's suggestion implementation and trial
// resources in viper, each controller caught and rebuilt with the same
// watches through the builder (katibSetup says why), their Prometheus
// collectors unregistered first.
func katibExperimentSetup(mgr manager.Manager) error {
	viper.Set(consts.ConfigExperimentSuggestionName, "default")
	metrics.Registry.Unregister(exputil.NewExpsCollector(nil, prometheus.NewRegistry()))
	caught := &catchingManager{Manager: mgr}
	if err := experiment.Add(caught); err != nil {
		return err
	}
	if len(caught.runnables) != 1 {
		return fmt.Errorf("experiment.Add added %d runnables, want its controller", len(caught.runnables))
	}
	do, ok := reflect.ValueOf(caught.runnables[0]).Elem().FieldByName("Do").Interface().(reconcile.Reconciler)
	if !ok {
		return fmt.Errorf("experiment.Add's controller %T has no reconciler Do", caught.runnables[0])
	}
	owner := func() handler.EventHandler {
		return handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &experimentsv1beta1.Experiment{}, handler.OnlyControllerOwner())
	}
	if err := builder.ControllerManagedBy(mgr).Named(experiment.ControllerName).For(&experimentsv1beta1.Experiment{}).
		Watches(&trialsv1beta1.Trial{}, owner()).Watches(&suggestionsv1beta1.Suggestion{}, owner()).Complete(do); err != nil {
		return err
	}
	return katibSetup(mgr)
}

// fakeSuggestion plays Katib's Suggestion controller and the algorithm
// service it runs (a Deployment and a Service, asked over gRPC): when a
// Suggestion's spec.requests passes status.suggestionCount, it appends
// that many trial assignments (named <experiment>-<n>, a learning rate
// each) to its status, as the controller does with the service's answer,
// with the optimistic lock of a status update.
var fakeSuggestion = explore.Reconciler{Name: "suggestion", For: &suggestionsv1beta1.Suggestion{},
	New: func(c client.Client, api client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			s := &suggestionsv1beta1.Suggestion{}
			if err := c.Get(ctx, req.NamespacedName, s); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if s.DeletionTimestamp != nil || s.IsCompleted() || s.Spec.Requests <= s.Status.SuggestionCount {
				return reconcile.Result{}, nil
			}
			if !s.IsRunning() {
				s.MarkSuggestionStatusCreated("SuggestionCreated", "Suggestion is created")
				s.MarkSuggestionStatusRunning(corev1.ConditionTrue, "SuggestionRunning", "Suggestion is running")
			}
			for n := s.Status.SuggestionCount; n < s.Spec.Requests; n++ {
				s.Status.Suggestions = append(s.Status.Suggestions, suggestionsv1beta1.TrialAssignment{
					Name:                 s.Name + "-" + strconv.Itoa(int(n)+1),
					ParameterAssignments: []commonv1beta1.ParameterAssignment{{Name: "lr", Value: "0.0" + strconv.Itoa(int(n)+1)}}})
			}
			s.Status.SuggestionCount = s.Spec.Requests
			return reconcile.Result{}, c.Status().Update(ctx, s)
		})
	}}

// ownerGC plays the garbage collector for objects of obj's kind controlled
// by an Experiment: it deletes one whose Experiment is gone (a live
// lookup), in the background.
func ownerGC(name string, obj func() client.Object) explore.Reconciler {
	return explore.Reconciler{Name: name, For: obj(),
		New: func(c client.Client, api client.Reader) reconcile.Reconciler {
			return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				o := obj()
				if err := c.Get(ctx, req.NamespacedName, o); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				owner := metav1.GetControllerOf(o)
				if o.GetDeletionTimestamp() != nil || owner == nil || owner.Kind != "Experiment" {
					return reconcile.Result{}, nil
				}
				e := &experimentsv1beta1.Experiment{}
				err := api.Get(ctx, client.ObjectKey{Namespace: o.GetNamespace(), Name: owner.Name}, e)
				if apierrors.IsNotFound(err) || err == nil && e.UID != owner.UID {
					uid := o.GetUID()
					return reconcile.Result{}, client.IgnoreNotFound(c.Delete(ctx, o, client.Preconditions{UID: &uid},
						client.PropagationPolicy(metav1.DeletePropagationBackground)))
				}
				return reconcile.Result{}, err
			})
		}}
}

// katibExperimentScenario is an Experiment as its users write it (random
// search over a learning rate, 2 Trials at most, 1 at a time, a Job as
// the trial template), with its webhook's defaults, run by the Experiment
// and Trial controllers as main.go sets them up, the Suggestion controller
// the Job controller (every Job succeeds) and the garbage collector
// played, and two user actions, each at any point: maxTrialCount raised
// to 3 (a LongRunning Experiment that has succeeded restarts), and a
// delete of the Experiment.
func katibExperimentScenario(env *testenv.Env) explore.Scenario {
	var schedule *explore.Source
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error {
			if src := explore.SourceOf(mgr.GetClient()); src != schedule { // a new schedule, not a crash restart
				schedule = src
				if err := releaseJobsIn(env.Client, katibNS); err != nil {
					return err
				}
			}
			return katibExperimentSetup(mgr)
		},
		Reconcilers: []explore.Reconciler{fakeSuggestion, jobSucceeds, trialJobGC,
			ownerGC("gc-trial", func() client.Object { return &trialsv1beta1.Trial{} }),
			ownerGC("gc-suggestion", func() client.Object { return &suggestionsv1beta1.Suggestion{} })},
		Objects: []client.Object{helloExperiment()},
		Actions: []explore.Action{{Name: "raise-max", Run: func(ctx context.Context, c client.Client) error {
			e := &experimentsv1beta1.Experiment{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, e); err != nil {
				return err
			}
			e.Spec.MaxTrialCount = ptr.To(int32(3))
			return c.Update(ctx, e)
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, &experimentsv1beta1.Experiment{ObjectMeta: metav1.ObjectMeta{Namespace: katibNS, Name: "hello"}})
		}}},
		Invariant: katibExperimentInvariant,
	}
}

// jobSucceeds plays the Job controller and a training Pod that succeeds:
// it writes a Job's success (completeJob) once, when the Job is not being
// deleted.
var jobSucceeds = explore.Reconciler{Name: "job", For: &batchv1.Job{},
	New: func(c client.Client, api client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			j := &batchv1.Job{}
			if err := c.Get(ctx, req.NamespacedName, j); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if j.DeletionTimestamp != nil || j.Status.CompletionTime != nil {
				return reconcile.Result{}, nil
			}
			return reconcile.Result{}, client.IgnoreNotFound(completeJob(ctx, c, j))
		})
	}}

// helloExperiment is an Experiment as a user writes it, with its
// webhook's defaults (SetDefault, the webhook's call).
func helloExperiment() *experimentsv1beta1.Experiment {
	job := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "training-container", Image: "ghcr.io/kubeflow/katib/pytorch-mnist-cpu",
				Command: []string{"python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1", "--lr=${trialParameters.learningRate}"}}}}}},
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(job)
	if err != nil {
		panic(err)
	}
	delete(content, "status")
	delete(content["metadata"].(map[string]any), "creationTimestamp")
	e := &experimentsv1beta1.Experiment{
		ObjectMeta: metav1.ObjectMeta{Namespace: katibNS, Name: "hello"},
		Spec: experimentsv1beta1.ExperimentSpec{
			Parameters: []experimentsv1beta1.ParameterSpec{{Name: "lr", ParameterType: experimentsv1beta1.ParameterTypeDouble,
				FeasibleSpace: experimentsv1beta1.FeasibleSpace{Min: "0.01", Max: "0.05"}}},
			Objective: &commonv1beta1.ObjectiveSpec{Type: commonv1beta1.ObjectiveTypeMaximize, ObjectiveMetricName: "accuracy"},
			Algorithm: &commonv1beta1.AlgorithmSpec{AlgorithmName: "random"},
			TrialTemplate: &experimentsv1beta1.TrialTemplate{PrimaryContainerName: "training-container",
				TrialParameters: []experimentsv1beta1.TrialParameterSpec{{Name: "learningRate", Reference: "lr"}},
				TrialSource:     experimentsv1beta1.TrialSource{TrialSpec: &unstructured.Unstructured{Object: content}}},
			ParallelTrialCount:  ptr.To(int32(2)),
			MaxTrialCount:       ptr.To(int32(2)),
			MaxFailedTrialCount: ptr.To(int32(1)),
		},
	}
	e.SetDefault()
	return e
}

// katibExperimentInvariant is what the Experiment controller promises of
// an Experiment not being deleted, in a steady state: no more Trials than
// maxTrialCount, no more running than parallelTrialCount, its status
// counts the Trials there are, and with maxTrialCount Trials succeeded it
// has succeeded.
func katibExperimentInvariant(ctx context.Context, r client.Reader) error {
	e := &experimentsv1beta1.Experiment{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, e); err != nil {
		return client.IgnoreNotFound(err)
	}
	if e.DeletionTimestamp != nil {
		return nil
	}
	trials := &trialsv1beta1.TrialList{}
	if err := r.List(ctx, trials, client.InNamespace(katibNS)); err != nil {
		return err
	}
	var succeeded, active int32
	for _, tr := range trials.Items {
		switch {
		case tr.IsSucceeded():
			succeeded++
		case !tr.IsCompleted():
			active++
		}
	}
	n := int32(len(trials.Items))
	switch {
	case n > *e.Spec.MaxTrialCount:
		return fmt.Errorf("Experiment %s/hello (maxTrialCount %d) has %d Trials", katibNS, *e.Spec.MaxTrialCount, n)
	case active > *e.Spec.ParallelTrialCount:
		return fmt.Errorf("Experiment %s/hello (parallelTrialCount %d) has %d Trials running", katibNS, *e.Spec.ParallelTrialCount, active)
	case e.Status.Trials != n || e.Status.TrialsSucceeded != succeeded:
		return fmt.Errorf("Experiment %s/hello counts %d Trials, %d succeeded; there are %d, %d succeeded", katibNS, e.Status.Trials, e.Status.TrialsSucceeded, n, succeeded)
	case succeeded == *e.Spec.MaxTrialCount && !e.IsSucceeded():
		return fmt.Errorf("Experiment %s/hello: %d Trials succeeded and it has not", katibNS, succeeded)
	}
	for _, tr := range trials.Items {
		if err := trialInvariant(ctx, r, tr.Name); err != nil {
			return err
		}
	}
	return nil
}

// TestKatibExperimentDefaults explores Katib's Experiment and Trial
// controllers together with the default options and a budget.
func TestKatibExperimentDefaults(t *testing.T) {
	env := startKatibExperiment(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(katibExperimentScenario(env)), explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestKatibExperimentFalseAlarmConverges is the explorer's false alarm
// above, alone: the schedule with no chosen step (every reconcile in the
// drain, every read fresh, no action) reaches a steady state in 67 steps
// (the Experiment has succeeded by step 41; the rest are the Trials' Jobs
// deleted and the garbage collector's, the suggestion's and the Job
// controller's reconciles, which write nothing, in each round), and with
// the default options the explorer reports converges at step 50: the
// drain's bound counts steps, and each round of the drain runs every
// reconciler on every object of its kind (here about 11 steps a round).
// Fixed: with Options.MaxSteps unset the drain has no bound of the
// user's; converges breaks when the drain returns to a state it was in,
// or past 1,000 steps (TestExploreLongDrainConverges in
// testenv/internal/patcherit).
func TestKatibExperimentFalseAlarmConverges(t *testing.T) {
	env := startKatibExperiment(t)
	s := katibExperimentScenario(env)
	s.Actions = nil
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Replay: "-"})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Fatalf("the schedule with no chosen step converges (in 67 steps with MaxSteps 200), and the explorer reports:\n%s", v)
	}
}

// TestKatibExperimentRaiseMax explores the same scenario with raise-max
// its only action (delete, run at the latest when the drain starts, ends
// every schedule before the Trials complete): the default options and a
// budget. Its fault phase once found, after 635 schedules in 6 min 49 s
// (with MaxSteps 200, past the converges false alarm then), a second false
// alarm of the explorer (TestKatibExperimentFalseAlarmOwnDelete), fixed:
// it must find no violation.
func TestKatibExperimentRaiseMax(t *testing.T) {
	env := startKatibExperiment(t)
	var tally actionTally
	s := katibExperimentScenario(env)
	s.Actions = s.Actions[:1] // raise-max
	res, err := explore.Run(t.Context(), tally.wrap(s), explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Fatalf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestKatibExperimentSucceedsInTheModel checks that the scenario reaches
// what it is for: with no action, the search finds a steady state where
// the Experiment has succeeded with both Trials (the invariant below says
// it must not, and the search must break it).
func TestKatibExperimentSucceedsInTheModel(t *testing.T) {
	env := startKatibExperiment(t)
	s := katibExperimentScenario(env)
	s.Actions = nil
	s.Invariant = func(ctx context.Context, r client.Reader) error {
		e := &experimentsv1beta1.Experiment{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: katibNS, Name: "hello"}, e); err != nil {
			return err
		}
		if e.IsSucceeded() && e.Status.TrialsSucceeded == 2 {
			return errors.New("the Experiment succeeded with 2 Trials")
		}
		return nil
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env)})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantUser) || !strings.Contains(v.String(), "the Experiment succeeded with 2 Trials") {
		t.Fatalf("want a steady state with the Experiment succeeded, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("reached after %d schedules:\n%s", v.Schedules, v)
}

// katibOwnDeleteSeed is the schedule TestKatibExperimentRaiseMax (then with MaxSteps 200) reported
// (its fault phase, after 635 schedules): the Experiment creates Trials
// hello-1 and hello-2, the Trial controller creates hello-1's Job and
// crashes before the status write of the same reconcile (#1), restarts
// with a cold cache, writes that status; then, in the drain, the Job
// succeeds, the Trial succeeds, and the Trial controller deletes the
// completed Trial's Job, as it always does (retainRun false).
const katibOwnDeleteSeed = "experiment-controller:katib/hello@0 experiment-controller:katib/hello@0 experiment-controller:katib/hello@0,0,0 " +
	"suggestion:katib/hello@0 experiment-controller:katib/hello@0,0,0 trial-controller:katib/hello-1@0 trial-controller:katib/hello-1@0 " +
	"trial-controller:katib/hello-1@0#1 trial-controller:katib/hello-1@0 experiment-controller:katib/hello@0,0"

// TestKatibExperimentFalseAlarmOwnDelete is that report, replayed: `no
// delete of own creation` for the Trial controller's delete of a
// succeeded Trial's Job, "after 1 crash(es) since" its creation. A false
// alarm of the explorer: the delete is the state's (the Trial has
// completed; the Job is deleted from fresh reads), not the crash's. The
// explorer judges such a delete against the same chosen steps with no
// crash and takes it back only if that schedule deletes the object at the
// same step or earlier (ownjudge.go); without the crash the reconcile that
// created the Job also writes its status, the drain's rounds differ, and
// the same delete comes at a later step. Fixed: two drains' steps are
// not compared, a delete both schedules make in their drains is taken
// back (TestOwnDeleteInBothDrains in testenv/explore).
func TestKatibExperimentFalseAlarmOwnDelete(t *testing.T) {
	env := startKatibExperiment(t)
	s := katibExperimentScenario(env)
	s.Actions = nil // the report had raise-max, run in the drain; without it the same (the delete at step 24)
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Replay: katibOwnDeleteSeed, Versions: 8})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Fatalf("the Trial controller deletes a succeeded Trial's Job, which the state asks for, and the explorer reports:\n%s", v)
	}
}
