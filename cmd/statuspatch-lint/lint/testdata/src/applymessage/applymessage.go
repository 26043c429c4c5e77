// Package applymessage is issue 72's server-side applies of the status in
// default mode, as a kubebuilder v4 reconciler without create api --ssa
// writes them: each finding names the patcher's apply mode and the field
// owner the apply carries, in one sentence.
package applymessage

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A kubebuilder reconciler has a Scheme: the package imports runtime, and
// the configuration's kind is named after it.
type Reconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

const owner client.FieldOwner = "widget-controller"

// The idiomatic form at controller-runtime v0.24.
func (r *Reconciler) unstructuredApply(ctx context.Context, u *unstructured.Unstructured) error {
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("widget-controller"), client.ForceOwnership) // want `^handwritten status write to runtime.ApplyConfiguration \(an interface\): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("widget-controller"\)$`
}

// The owner as a typed constant: WithFieldOwner takes a string.
func (r *Reconciler) typedOwner(ctx context.Context, ac runtime.ApplyConfiguration) error {
	return r.Status().Apply(ctx, ac, owner, client.ForceOwnership) // want `^handwritten status write to runtime.ApplyConfiguration \(an interface\): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(owner\)\)$`
}

// No field owner given: apply mode needs one.
func (r *Reconciler) noOwner(ctx context.Context, u *unstructured.Unstructured) error {
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)) // want `^handwritten status write to runtime.ApplyConfiguration \(an interface\): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(<your field owner>\)$`
}

// A status Update is no apply: nothing about apply mode.
func (r *Reconciler) update(ctx context.Context, obj client.Object) error {
	return r.Status().Update(ctx, obj) // want `^handwritten status write to client.Object \(an interface\): use the generated status patcher of the object's concrete type$`
}
