// Package audit checks the audit verdicts against the real controller-runtime.
package audit

import (
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/realmod/patchutil"
)

func write(ctx context.Context, c client.Client, d *appsv1.Deployment, rv string) {
	base := d.DeepCopy()
	_ = c.Status().Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^optimistic: Status\(\).Patch of Deployment: MergeFromWithOptimisticLock$`
	_ = c.Status().Patch(ctx, d, client.MergeFrom(base))                                                  // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock \(no fix: the base base is taken at line 17, before the write of d at line 18, `
	_ = c.Status().Patch(ctx, d, client.RawPatch("application/merge-patch+json", nil))                    // want `^unresolved: Status\(\).Patch of Deployment: client.RawPatch$`
	_ = c.Status().Update(ctx, d)                                                                         // want `^optimistic: Status\(\).Update of Deployment`
	d.SetResourceVersion("")
	_ = c.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: resourceVersion cleared before Update$`

	_ = c.Status().Apply(ctx, appsv1ac.Deployment("a", "b").WithStatus(appsv1ac.DeploymentStatus().WithReplicas(1))) // want `^blind: Status\(\).Apply of Deployment: server-side apply of appsv1ac.Deployment\(...\) without resourceVersion; .*\(no fix: no Deployment fetched with Get before the apply configuration is built\)$`
	_ = c.Status().Apply(ctx, appsv1ac.Deployment("a", "b").WithResourceVersion(rv))                                 // want `^optimistic: Status\(\).Apply of Deployment: apply configuration WithResourceVersion$`
}

// client.Object is an alias of cacheapi.Object in the real package: the kind
// is named as written.
func writeObject(ctx context.Context, c client.Client, obj client.Object, base client.Object) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of client.Object: client.MergeFrom without optimistic lock$`
}

// A patch built in another package of the module.
func writeFromHelper(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	return c.Status().Patch(ctx, d, patchutil.NewPatch(d.DeepCopy())) // want `^blind: Status\(\).Patch of Deployment: patchutil.NewPatch returns client.MergeFrom without optimistic lock$`
}

// kubebuilder's --ssa status write (the book's server-side-apply page)
// after the scaffold's fetch, on the real client and apply configurations:
// the metadata builders over the embedded *ObjectMetaApplyConfiguration.
func applyStatus(ctx context.Context, c client.Client, key types.NamespacedName) error {
	var deploy appsv1.Deployment
	if err := c.Get(ctx, key, &deploy); err != nil {
		return client.IgnoreNotFound(err)
	}
	cfg := appsv1ac.Deployment(key.Name, key.Namespace).
		WithStatus(appsv1ac.DeploymentStatus().WithReplicas(1))
	if err := c.SubResource("status").Apply(ctx, cfg, client.FieldOwner("deploy-controller"), client.ForceOwnership); err != nil { // want `^blind: SubResource\("status"\).Apply of Deployment: server-side apply of appsv1ac.Deployment\(...\) without resourceVersion; add .WithResourceVersion\(deploy.ResourceVersion\), or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
		return err
	}
	locked := appsv1ac.Deployment(key.Name, key.Namespace)
	locked.ResourceVersion = &deploy.ResourceVersion
	if err := c.Status().Apply(ctx, locked, client.ForceOwnership); err != nil { // want `^optimistic: Status\(\).Apply of Deployment: apply configuration sets resourceVersion$`
		return err
	}
	body, err := json.Marshal(appsv1ac.Deployment(key.Name, key.Namespace).WithResourceVersion(deploy.ResourceVersion))
	if err != nil {
		return err
	}
	return c.Status().Patch(ctx, &deploy, client.RawPatch(types.ApplyPatchType, body), client.ForceOwnership) // want `^optimistic: Status\(\).Patch of Deployment: client.RawPatch\(types.ApplyPatchType\) of apply configuration WithResourceVersion$`
}
