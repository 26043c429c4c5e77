// Package kbssa: status writes by server-side apply as kubebuilder's --ssa
// APIs are used (docs/book/src/reference/server-side-apply.md at
// kubernetes-sigs/kubebuilder a4c9496), blind and locked.
package kbssa

import (
	"context"
	"encoding/json"

	appsv1 "example.com/kbssa/api/v1"
	appsv1apply "example.com/kbssa/api/v1/applyconfiguration/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	metav1apply "k8s.io/client-go/applyconfigurations/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ApplicationReconciler struct {
	client.Client
}

// Reconcile is kubebuilder's example, word for word: the status is applied
// with no resourceVersion and nothing fetched to take one from.
func (r *ApplicationReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// Build desired state - specify only fields you manage
	app := appsv1apply.Application(req.Name, req.Namespace).
		WithStatus(appsv1apply.ApplicationStatus().
			WithConditions(metav1apply.Condition().
				WithType("Available").
				WithStatus("True").
				WithReason("Reconciled")))

	// Apply status, forcing ownership of the fields this controller manages
	if err := r.SubResource("status").Apply(ctx, app, // want `^blind: SubResource\("status"\).Apply of Application: server-side apply of appsv1apply.Application\(...\) without resourceVersion; add .WithResourceVersion\(obj.ResourceVersion\) \(obj: the Application the status was computed from\), or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\) \(no fix: no Application fetched with Get before the apply configuration is built\)$`
		client.FieldOwner("application-controller"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Fetched: the same write after the scaffold's fetch; the fix locks the
// apply configuration with the fetched object's resourceVersion.
func (r *ApplicationReconciler) Fetched(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var application appsv1.Application
	if err := r.Get(ctx, req.NamespacedName, &application); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	app := appsv1apply.Application(req.Name, req.Namespace).
		WithStatus(appsv1apply.ApplicationStatus().
			WithConditions(metav1apply.Condition().
				WithType("Available").
				WithStatus("True").
				WithReason("Reconciled")))
	if err := r.SubResource("status").Apply(ctx, app, // want `^blind: SubResource\("status"\).Apply of Application: server-side apply of appsv1apply.Application\(...\) without resourceVersion; add .WithResourceVersion\(application.ResourceVersion\), or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
		client.FieldOwner("application-controller"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// statusApply: Status().Apply, the object fetched into a pointer, the
// configuration passed inline.
func (r *ApplicationReconciler) statusApply(ctx context.Context, key types.NamespacedName) error {
	application := &appsv1.Application{}
	if err := r.Get(ctx, key, application); err != nil {
		return err
	}
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithStatus(appsv1apply.ApplicationStatus()), client.ForceOwnership) // want `^blind: Status\(\).Apply of Application: .* add .WithResourceVersion\(application.ResourceVersion\), or use`
}

// Locked writes are optimistic: the resourceVersion in the chain, from
// the field or the getter, or set on the variable before the write.
func (r *ApplicationReconciler) locked(ctx context.Context, application *appsv1.Application) {
	_ = r.SubResource("status").Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithResourceVersion(application.ResourceVersion).WithStatus(nil), client.ForceOwnership) // want `^optimistic: SubResource\("status"\).Apply of Application: apply configuration WithResourceVersion$`
	_ = r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithStatus(nil).WithResourceVersion(application.GetResourceVersion()))                                // want `^optimistic: `
	cfg := appsv1apply.Application(application.Name, application.Namespace).WithStatus(nil)
	cfg.WithResourceVersion(application.ResourceVersion)
	_ = r.Status().Apply(ctx, cfg) // want `^optimistic: Status\(\).Apply of Application: apply configuration sets resourceVersion$`
	field := appsv1apply.Application(application.Name, application.Namespace)
	field.ResourceVersion = &application.ResourceVersion // through the embedded *ObjectMetaApplyConfiguration
	_ = r.Status().Apply(ctx, field)                     // want `^optimistic: Status\(\).Apply of Application: apply configuration sets resourceVersion$`
}

// Not status writes: the main resource's apply (the API server ignores a
// status there) and another subresource.
func (r *ApplicationReconciler) notStatus(ctx context.Context, application *appsv1.Application) { // want notStatus:`^statusOnly\[1\]$`
	_ = r.Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithSpec(appsv1apply.ApplicationSpec().WithReplicas(2)), client.FieldOwner("application-controller"), client.ForceOwnership)
	_ = r.Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithStatus(appsv1apply.ApplicationStatus()))
	_ = r.SubResource("scale").Apply(ctx, appsv1apply.Application(application.Name, application.Namespace))
}

// Blind or unknown in ways no fix can lock.
func (r *ApplicationReconciler) noFix(ctx context.Context, key types.NamespacedName, application *appsv1.Application, force bool) { // want noFix:`^statusOnly\[2\]$`
	ext, _ := appsv1apply.ExtractApplicationStatus(application, "application-controller")
	_ = r.Status().Apply(ctx, ext.WithStatus(nil)) // want `^blind: Status\(\).Apply of Application: server-side apply of appsv1apply.ExtractApplicationStatus\(...\) without resourceVersion; .* \(no fix: the apply configuration is not built by a constructor call \(appsv1apply.ExtractApplicationStatus\)\)$`

	first, second := &appsv1.Application{}, &appsv1.Application{}
	_ = r.Get(ctx, key, first)
	_ = r.Get(ctx, key, second)
	_ = r.Status().Apply(ctx, appsv1apply.Application(key.Name, key.Namespace)) // want `^blind: .*\(no fix: several Application objects fetched with Get \(first, second\): which one the status was computed from is not clear\)$`

	_ = r.Get(ctx, client.ObjectKeyFromObject(application), application)
	_ = r.Status().Apply(ctx, appsv1apply.Application("other", application.Namespace)) // want `^blind: .*\(no fix: the apply configuration's name is not the fetched Application's \(first, second, application\)\)$`

	cfg := appsv1apply.Application("a", "b")
	if force {
		cfg = cfg.WithResourceVersion(application.ResourceVersion)
	}
	_ = r.Status().Apply(ctx, cfg) // want `^blind: Status\(\).Apply of Application: server-side apply of appsv1apply.Application\(...\) without resourceVersion`

	cleared := appsv1apply.Application("a", "b").WithResourceVersion("")
	_ = r.Status().Apply(ctx, cleared) // want `^blind: Status\(\).Apply of Application: resourceVersion cleared in the apply configuration; .*\(no fix: the apply configuration clears its resourceVersion\)$`
}

// ApplyGiven's configuration comes from its callers, outside the package.
func (r *ApplicationReconciler) ApplyGiven(ctx context.Context, cfg *appsv1apply.ApplicationApplyConfiguration) error {
	return r.Status().Apply(ctx, cfg) // want `^unresolved: Status\(\).Apply of Application: apply configuration from parameter cfg of ApplyGiven \(no call site in package\); add .WithResourceVersion\(obj.ResourceVersion\)`
}

// The older routes: the deprecated client.Apply patch and a raw apply
// patch.
func (r *ApplicationReconciler) patches(ctx context.Context, application *appsv1.Application, body []byte) {
	_ = r.Status().Patch(ctx, application, client.Apply, client.FieldOwner("application-controller"), client.ForceOwnership) // want `^unresolved: Status\(\).Patch of Application: client.Apply: object's resourceVersion unknown; set it before the patch, or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`

	data, _ := json.Marshal(appsv1apply.Application("a", "b").WithStatus(appsv1apply.ApplicationStatus()))
	_ = r.Status().Patch(ctx, application, client.RawPatch(types.ApplyPatchType, data)) // want `^blind: Status\(\).Patch of Application: client.RawPatch\(types.ApplyPatchType\) of server-side apply of appsv1apply.Application\(...\) without resourceVersion; `
	locked, _ := json.Marshal(appsv1apply.Application("a", "b").WithResourceVersion(application.ResourceVersion))
	_ = r.Status().Patch(ctx, application, client.RawPatch(types.ApplyPatchType, locked))            // want `^optimistic: Status\(\).Patch of Application: client.RawPatch\(types.ApplyPatchType\) of apply configuration WithResourceVersion$`
	_ = r.SubResource("status").Patch(ctx, application, client.RawPatch(types.ApplyPatchType, body)) // want `^unresolved: SubResource\("status"\).Patch of Application: client.RawPatch\(types.ApplyPatchType\): apply body not traced; send the resourceVersion in it, or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
}

// fetchedAfter fills its object only after building the configuration,
// and scoped fetches an object the configuration's scope does not see:
// neither has a resourceVersion to lock with there, so no fix.
func (r *ApplicationReconciler) fetchedAfter(ctx context.Context, key types.NamespacedName) error {
	var late appsv1.Application
	cfg := appsv1apply.Application(key.Name, key.Namespace)
	if err := r.Get(ctx, key, &late); err != nil {
		return err
	}
	return r.Status().Apply(ctx, cfg) // want `\(no fix: no Application fetched with Get before the apply configuration is built\)$`
}

func (r *ApplicationReconciler) scoped(ctx context.Context, key types.NamespacedName) error {
	if key.Name != "" {
		inner := &appsv1.Application{}
		if err := r.Get(ctx, key, inner); err != nil {
			return err
		}
	}
	return r.Status().Apply(ctx, appsv1apply.Application(key.Name, key.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built\)$`
}

// A helper that applies the status of the object its callers pass: each
// caller fetched it with Get, so the fix locks with the parameter's
// resourceVersion (the version the caller read).
func (r *ApplicationReconciler) CallsHelper(ctx context.Context, req ctrl.Request) error {
	var application appsv1.Application
	if err := r.Get(ctx, req.NamespacedName, &application); err != nil {
		return err
	}
	return r.applyReady(ctx, &application)
}

func (r *ApplicationReconciler) applyReady(ctx context.Context, application *appsv1.Application) error { // want applyReady:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace).WithStatus(appsv1apply.ApplicationStatus()), client.ForceOwnership) // want `^blind: Status\(\).Apply of Application: .* add .WithResourceVersion\(application.ResourceVersion\), or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
}

// Helpers whose callers are not all seen fetching the object: no fix, and
// the finding says which rule failed.
func (r *ApplicationReconciler) ApplyExported(ctx context.Context, application *appsv1.Application) error { // want ApplyExported:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built, and application is a parameter of ApplyExported, which is exported: its callers out of this package are not seen\)$`
}

func (r *ApplicationReconciler) applyUncalled(ctx context.Context, application *appsv1.Application) error { // want applyUncalled:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built, and application is a parameter of applyUncalled, which has no caller in the package\)$`
}

func (r *ApplicationReconciler) CallsWithANewObject(ctx context.Context, req ctrl.Request) error {
	if err := r.applyBuilt(ctx, &appsv1.Application{}); err != nil {
		return err
	}
	var application appsv1.Application
	if err := r.Get(ctx, req.NamespacedName, &application); err != nil {
		return err
	}
	return r.applyBuilt(ctx, &application)
}

func (r *ApplicationReconciler) applyBuilt(ctx context.Context, application *appsv1.Application) error { // want applyBuilt:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built, and application is a parameter of applyBuilt: its caller at line \d+ passes an object it did not fetch with Get before the call\)$`
}

func (r *ApplicationReconciler) CallsAValue(ctx context.Context, req ctrl.Request) error {
	var application appsv1.Application
	if err := r.Get(ctx, req.NamespacedName, &application); err != nil {
		return err
	}
	apply := r.applyAsValue
	return apply(ctx, &application)
}

func (r *ApplicationReconciler) applyAsValue(ctx context.Context, application *appsv1.Application) error { // want applyAsValue:`^statusOnly\[1\]$`
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built, and application is a parameter of applyAsValue, which is used other than in a call\)$`
}

func (r *ApplicationReconciler) CallsReassigning(ctx context.Context, req ctrl.Request) error {
	var application appsv1.Application
	if err := r.Get(ctx, req.NamespacedName, &application); err != nil {
		return err
	}
	return r.applyReassigned(ctx, &application)
}

func (r *ApplicationReconciler) applyReassigned(ctx context.Context, application *appsv1.Application) error {
	application = &appsv1.Application{ObjectMeta: metav1.ObjectMeta{Name: application.Name, Namespace: application.Namespace}}
	return r.Status().Apply(ctx, appsv1apply.Application(application.Name, application.Namespace)) // want `\(no fix: no Application fetched with Get before the apply configuration is built, and application is a parameter of applyReassigned, which assigns it at line \d+: the object may not be the one its callers read\)$`
}

var _ = metav1.ConditionTrue
