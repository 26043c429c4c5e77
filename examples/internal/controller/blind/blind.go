// Package blind holds BASELINES ONLY: the Rollout reconciler written the way
// status is commonly written today, without an optimistic lock. They exist
// so that the contention proof (and the demo) can show what the generated
// patchers prevent. The operator never uses them.
//
// Two variants write the same status as controller.RolloutReconciler:
//
//   - ModeMergeFrom: r.Status().Patch(ctx, obj, client.MergeFrom(base)), a
//     JSON merge patch without resourceVersion;
//   - ModeApply: r.Status().Apply(ctx, applyConfig, client.FieldOwner(..),
//     client.ForceOwnership), server-side apply without resourceVersion.
//
// Both write unconditionally at the end of every reconcile, as the common
// "defer patch status" pattern does. Each write carries a
// statuspatch:allow directive, so statuspatch-lint lets it through.
package blind

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	ctl "github.com/statuspatch/statuspatch/examples/internal/controller"
)

// Mode selects how the baseline writes status.
type Mode int

const (
	// ModeMergeFrom writes with client.MergeFrom: no optimistic lock.
	ModeMergeFrom Mode = iota
	// ModeApply writes with server-side apply and no resourceVersion.
	ModeApply
)

func (m Mode) String() string {
	if m == ModeApply {
		return "blind SSA"
	}
	return "blind MergeFrom"
}

// RolloutReconciler is the baseline: the same decisions as
// controller.RolloutReconciler, written blind. It has no finalizer.
type RolloutReconciler struct {
	Client client.Client
	Mode   Mode
	// NewPlanID makes plan IDs. Default: random.
	NewPlanID func() string
	// OnPlan is called like controller.RolloutReconciler.OnPlan, after the
	// write succeeded.
	OnPlan func(key client.ObjectKey, planID string, built bool)
}

// Reconcile moves one Rollout one step forward and writes status blind.
func (r *RolloutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ro := &demov1.Rollout{}
	if err := r.Client.Get(ctx, req.NamespacedName, ro); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !ro.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	base := ro.DeepCopy()
	st := &ro.Status
	planned, built := false, false
	switch {
	case st.Plan == nil || st.Plan.Generation != ro.Generation:
		id := ctl.RandomPlanID()
		if r.NewPlanID != nil {
			id = r.NewPlanID()
		}
		st.Plan = ctl.NewPlan(ro, id)
		st.CompletedSteps = 0
		st.Phase = demov1.RolloutPlanning
		setCondition(ro, ctl.ConditionProgressing, metav1.ConditionTrue, ctl.ReasonPlanBuilt, fmt.Sprintf("plan %s: %d steps", id, len(st.Plan.Steps)))
		setCondition(ro, ctl.ConditionReady, metav1.ConditionFalse, ctl.ReasonInProgress, "rollout in progress")
		planned, built = true, true
	case int(st.CompletedSteps) < len(st.Plan.Steps):
		st.CompletedSteps++
		st.Phase = demov1.RolloutProgressing
		setCondition(ro, ctl.ConditionProgressing, metav1.ConditionTrue, ctl.ReasonStepCompleted,
			fmt.Sprintf("step %d of %d (%s) done", st.CompletedSteps, len(st.Plan.Steps), st.Plan.Steps[st.CompletedSteps-1]))
	default:
		st.Phase = demov1.RolloutCompleted
		setCondition(ro, ctl.ConditionProgressing, metav1.ConditionFalse, ctl.ReasonCompleted, fmt.Sprintf("plan %s completed", st.Plan.ID))
		setCondition(ro, ctl.ConditionReady, metav1.ConditionTrue, ctl.ReasonCompleted, fmt.Sprintf("version %s rolled out", st.Plan.Version))
	}
	st.ObservedGeneration = ro.Generation
	if err := r.writeStatus(ctx, ro, base); err != nil {
		return ctrl.Result{}, err
	}
	if planned && r.OnPlan != nil {
		r.OnPlan(req.NamespacedName, st.Plan.ID, built)
	}
	if st.Phase == demov1.RolloutCompleted && ro.Spec.Fleet != "" {
		return ctrl.Result{}, r.joinFleet(ctx, ro)
	}
	return ctrl.Result{}, nil
}

// joinFleet appends the rollout to its Fleet's members from the state read,
// and writes blind: concurrent joins overwrite each other's entries.
func (r *RolloutReconciler) joinFleet(ctx context.Context, ro *demov1.Rollout) error {
	f := &demov1.Fleet{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: ro.Spec.Fleet}, f); err != nil {
		return client.IgnoreNotFound(err)
	}
	member := demov1.FleetMember{Rollout: client.ObjectKeyFromObject(ro).String(), PlanID: ro.Status.Plan.ID, Version: ro.Status.Plan.Version}
	for _, m := range f.Status.Members {
		if m == member {
			return nil
		}
	}
	base := f.DeepCopy()
	kept := f.Status.Members[:0]
	for _, m := range f.Status.Members {
		if m.Rollout != member.Rollout {
			kept = append(kept, m)
		}
	}
	f.Status.Members = append(kept, member)
	return r.writeStatus(ctx, f, base)
}

// writeStatus is the blind write.
func (r *RolloutReconciler) writeStatus(ctx context.Context, obj, base client.Object) error {
	switch r.Mode {
	case ModeApply:
		ac, err := statusApplyConfiguration(r.Client, obj)
		if err != nil {
			return err
		}
		//statuspatch:allow baseline for the contention proof
		return r.Client.Status().Apply(ctx, ac, client.FieldOwner(ctl.FieldOwner), client.ForceOwnership)
	default:
		//statuspatch:allow baseline for the contention proof
		return r.Client.Status().Patch(ctx, obj, client.MergeFrom(base), client.FieldOwner(ctl.FieldOwner))
	}
}

// statusApplyConfiguration is obj's identity and full status as an apply
// configuration, without resourceVersion: a blind server-side apply.
func statusApplyConfiguration(c client.Client, obj client.Object) (runtime.ApplyConfiguration, error) {
	gvk, err := c.GroupVersionKindFor(obj)
	if err != nil {
		return nil, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: map[string]any{"status": content["status"]}}
	u.SetGroupVersionKind(gvk)
	u.SetName(obj.GetName())
	u.SetNamespace(obj.GetNamespace())
	return client.ApplyConfigurationFromUnstructured(u), nil
}

func setCondition(ro *demov1.Rollout, typ string, status metav1.ConditionStatus, reason, msg string) {
	meta.SetStatusCondition(&ro.Status.Conditions, metav1.Condition{Type: typ, Status: status, Reason: reason, Message: msg, ObservedGeneration: ro.Generation})
}

// SetupWithManager registers the baseline with mgr under the name
// "rollout-blind".
func (r *RolloutReconciler) SetupWithManager(mgr ctrl.Manager, opts controller.Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&demov1.Rollout{}).
		Named("rollout-blind").
		WithOptions(opts).
		Complete(r)
}
