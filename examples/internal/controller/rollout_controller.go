package controller

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

const (
	// RolloutFinalizer guards a Rollout's Fleet membership: on deletion the
	// rollout's entry is removed from its Fleet's status before the object
	// goes away.
	RolloutFinalizer = "demo.statuspatch.dev/fleet-membership"

	// FieldOwner is the field manager of every write the operator makes.
	FieldOwner = "statuspatch-example"

	// Condition types and reasons of a Rollout.
	ConditionProgressing = "Progressing"
	ConditionReady       = "Ready"
	ReasonPlanBuilt      = "PlanBuilt"
	ReasonStepCompleted  = "StepCompleted"
	ReasonCompleted      = "Completed"
	ReasonInProgress     = "InProgress"

	// conflictRequeue is how soon a reconcile whose write conflicted runs
	// again. The conflicting write also produces a watch event, which
	// usually gets there first.
	conflictRequeue = 50 * time.Millisecond
	// fleetMissingRequeue is how long a completed Rollout waits for its
	// Fleet to appear.
	fleetMissingRequeue = 30 * time.Second
)

// RolloutReconciler builds a plan once per spec generation, advances it a
// step per reconcile, and reports the completed rollout to its Fleet.
type RolloutReconciler struct {
	// Client reads (usually from the manager's cache) and writes. Make it
	// with patcher.ForManager(mgr, opts...) (NewRolloutReconciler does):
	// every patcher made from it reads through the manager's API reader
	// where a cache would be stale (Retry re-reads through it on a
	// conflict: a lagging cache would hand the retry the same stale object
	// again), and gets the options it carries (the field owner, and
	// WithBackoff or WithMetrics where the caller adds them).
	Client client.Client
	// NewPlanID makes plan IDs. Default: random.
	NewPlanID func() string
	// OnPlan, if set, is called once per reconcile that reached the plan
	// decision, after the write succeeded: built reports whether this
	// reconcile's plan is the one written, or whether it found a plan
	// already there and skipped. The contention proof and the demo count
	// plans with it; the operator leaves it nil.
	OnPlan func(key client.ObjectKey, planID string, built bool)
}

// NewRolloutReconciler returns the reconciler the operator runs on mgr: its
// patchers get the manager's API reader and FieldOwner from
// patcher.ForManager. A caller that wants more options (a test's backoff,
// the demo's metrics registry) makes the Client itself the same way:
// patcher.ForManager(mgr, patcher.WithFieldOwner(FieldOwner), opts...).
func NewRolloutReconciler(mgr ctrl.Manager) *RolloutReconciler {
	return &RolloutReconciler{Client: patcher.ForManager(mgr, patcher.WithFieldOwner(FieldOwner))}
}

// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=rollouts,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=rollouts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=rollouts/finalizers,verbs=update
// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=fleets/status,verbs=get;update;patch

// Reconcile moves one Rollout one step forward.
func (r *RolloutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p, err := patchers.FetchRolloutStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// Before any work: a read older than this process's own last write is
	// re-read through the API reader, or, without one, the reconcile is
	// handed back to run again when the cache has caught up.
	if err := p.Fresh(ctx); err != nil {
		return requeueOnConflict(ctx, err)
	}
	ro := p.Object()
	if !ro.DeletionTimestamp.IsZero() {
		return r.finalize(ctx, p)
	}
	// A metadata write with the optimistic lock that moves the patcher's
	// base: the status write below does not conflict with it.
	if _, err := p.AddFinalizer(ctx, RolloutFinalizer); err != nil {
		return requeueOnConflict(ctx, err)
	}

	if plan := ro.Status.Plan; plan == nil || plan.Generation != ro.Generation {
		return r.plan(ctx, p)
	}

	plan := ro.Status.Plan
	if int(ro.Status.CompletedSteps) < len(plan.Steps) {
		// A real operator would do the step's work here, idempotently.
		ro.Status.CompletedSteps++
		ro.Status.Phase = demov1.RolloutProgressing
		p.SetCondition(metav1.Condition{Type: ConditionProgressing, Status: metav1.ConditionTrue, Reason: ReasonStepCompleted,
			Message: fmt.Sprintf("step %d of %d (%s) done", ro.Status.CompletedSteps, len(plan.Steps), plan.Steps[ro.Status.CompletedSteps-1])})
		p.MarkObserved()
		// Progress depends on the state this reconcile read; on a conflict
		// it runs again on the newer state.
		if err := p.Flush(ctx); err != nil {
			return requeueOnConflict(ctx, err)
		}
		return ctrl.Result{}, nil
	}

	ro.Status.Phase = demov1.RolloutCompleted
	p.SetCondition(metav1.Condition{Type: ConditionProgressing, Status: metav1.ConditionFalse, Reason: ReasonCompleted,
		Message: fmt.Sprintf("plan %s completed", plan.ID)})
	p.SetCondition(metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonCompleted,
		Message: fmt.Sprintf("version %s rolled out", plan.Version)})
	p.MarkObserved()
	// In the steady state nothing changed and Flush sends nothing.
	if err := p.Flush(ctx); err != nil {
		return requeueOnConflict(ctx, err)
	}
	if ro.Spec.Fleet == "" {
		return ctrl.Result{}, nil
	}
	return r.joinFleet(ctx, ro)
}

// plan builds the plan for the current generation unless another reconcile
// did first. The decision runs inside Retry: when two reconciles both read
// "no plan yet", the loser's write conflicts, Retry re-reads the object
// through the API reader (the manager's, from patcher.ForManager), and this
// function sees the winner's plan and skips.
func (r *RolloutReconciler) plan(ctx context.Context, p *patchers.RolloutStatusPatcher) (ctrl.Result, error) {
	var built bool
	err := p.Retry(ctx, func(ro *demov1.Rollout) error {
		built = false
		if plan := ro.Status.Plan; plan != nil && plan.Generation == ro.Generation {
			return nil // another reconcile planned this generation already
		}
		ro.Status.Plan = NewPlan(ro, r.newPlanID())
		ro.Status.CompletedSteps = 0
		ro.Status.Phase = demov1.RolloutPlanning
		p.SetCondition(metav1.Condition{Type: ConditionProgressing, Status: metav1.ConditionTrue, Reason: ReasonPlanBuilt,
			Message: fmt.Sprintf("plan %s: %d steps", ro.Status.Plan.ID, len(ro.Status.Plan.Steps))})
		p.SetCondition(metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: ReasonInProgress,
			Message: "rollout in progress"})
		p.MarkObserved()
		built = true
		return nil
	})
	if err != nil {
		return requeueOnConflict(ctx, err)
	}
	ro := p.Object()
	if r.OnPlan != nil {
		r.OnPlan(client.ObjectKeyFromObject(ro), ro.Status.Plan.ID, built)
	}
	if built {
		log.FromContext(ctx).V(1).Info("built plan", "plan", ro.Status.Plan.ID, "generation", ro.Generation)
	}
	return ctrl.Result{}, nil
}

// joinFleet records the completed rollout in its Fleet's status. Many
// rollouts complete at once and write the same Fleet: each upserts its own
// entry inside Retry, so no entry is lost.
func (r *RolloutReconciler) joinFleet(ctx context.Context, ro *demov1.Rollout) (ctrl.Result, error) {
	member := demov1.FleetMember{Rollout: client.ObjectKeyFromObject(ro).String(), PlanID: ro.Status.Plan.ID, Version: ro.Status.Plan.Version}
	fp, err := patchers.FetchFleetStatusPatcher(ctx, r.Client, client.ObjectKey{Name: ro.Spec.Fleet})
	if apierrors.IsNotFound(err) {
		log.FromContext(ctx).Info("fleet not found; will report later", "fleet", ro.Spec.Fleet)
		return ctrl.Result{RequeueAfter: fleetMissingRequeue}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if i := memberIndex(fp.Status().Members, member.Rollout); i >= 0 && fp.Status().Members[i] == member {
		return ctrl.Result{}, nil // steady state: no request
	}
	err = fp.Retry(ctx, func(f *demov1.Fleet) error {
		if i := memberIndex(f.Status.Members, member.Rollout); i >= 0 {
			f.Status.Members[i] = member
		} else {
			f.Status.Members = append(f.Status.Members, member)
		}
		return nil
	})
	return requeueOnConflict(ctx, client.IgnoreNotFound(err))
}

// finalize removes the rollout from its Fleet, then removes the finalizer.
// Once the finalizer is gone the server deletes the object: NotFound from
// here on means done.
func (r *RolloutReconciler) finalize(ctx context.Context, p *patchers.RolloutStatusPatcher) (ctrl.Result, error) {
	ro := p.Object()
	if !containsString(ro.Finalizers, RolloutFinalizer) {
		return ctrl.Result{}, nil
	}
	if ro.Spec.Fleet != "" {
		if err := r.leaveFleet(ctx, ro); err != nil {
			return requeueOnConflict(ctx, err)
		}
	}
	if _, err := p.RemoveFinalizer(ctx, RolloutFinalizer); err != nil {
		return requeueOnConflict(ctx, client.IgnoreNotFound(err))
	}
	return ctrl.Result{}, nil
}

func (r *RolloutReconciler) leaveFleet(ctx context.Context, ro *demov1.Rollout) error {
	key := client.ObjectKeyFromObject(ro).String()
	fp, err := patchers.FetchFleetStatusPatcher(ctx, r.Client, client.ObjectKey{Name: ro.Spec.Fleet})
	if err != nil {
		return client.IgnoreNotFound(err) // no Fleet, no membership
	}
	err = fp.Retry(ctx, func(f *demov1.Fleet) error {
		if i := memberIndex(f.Status.Members, key); i >= 0 {
			f.Status.Members = append(f.Status.Members[:i], f.Status.Members[i+1:]...)
		}
		return nil
	})
	return client.IgnoreNotFound(err)
}

// SetupWithManager registers the controller with mgr.
func (r *RolloutReconciler) SetupWithManager(mgr ctrl.Manager, opts controller.Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&demov1.Rollout{}).
		Named("rollout").
		WithOptions(opts).
		Complete(r)
}

func (r *RolloutReconciler) newPlanID() string {
	if r.NewPlanID != nil {
		return r.NewPlanID()
	}
	return RandomPlanID()
}

// RandomPlanID returns a new random plan ID.
func RandomPlanID() string { return fmt.Sprintf("%012x", rand.Uint64()>>16) }

// NewPlan builds the plan for ro's current generation: spec.steps steps.
func NewPlan(ro *demov1.Rollout, id string) *demov1.RolloutPlan {
	n := max(ro.Spec.Steps, 1)
	steps := make([]string, n)
	for i := range steps {
		steps[i] = fmt.Sprintf("shift-%d%%", (i+1)*100/int(n))
	}
	return &demov1.RolloutPlan{ID: id, Generation: ro.Generation, Version: ro.Spec.Version, Steps: steps}
}

// requeueOnConflict turns a Conflict into a quiet, quick requeue: someone
// else wrote the object, and the next reconcile decides on the newer state.
// A read from a cache behind this process's own write is requeued after
// the delay the patcher suggests.
func requeueOnConflict(ctx context.Context, err error) (ctrl.Result, error) {
	var stale *patcher.StaleCacheError
	if errors.As(err, &stale) {
		log.FromContext(ctx).V(1).Info("read from a stale cache; requeueing", "error", err.Error())
		return ctrl.Result{RequeueAfter: stale.RequeueAfter}, nil
	}
	if err != nil && apierrors.IsConflict(err) {
		log.FromContext(ctx).V(1).Info("write conflicted; requeueing", "error", err.Error())
		return ctrl.Result{RequeueAfter: conflictRequeue}, nil
	}
	return ctrl.Result{}, err
}

func memberIndex(members []demov1.FleetMember, rollout string) int {
	for i, m := range members {
		if m.Rollout == rollout {
			return i
		}
	}
	return -1
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
