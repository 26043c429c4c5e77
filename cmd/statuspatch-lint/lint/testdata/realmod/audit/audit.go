// Package audit checks the audit verdicts against the real controller-runtime.
package audit

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/realmod/patchutil"
)

func write(ctx context.Context, c client.Client, d *appsv1.Deployment, rv string) {
	base := d.DeepCopy()
	_ = c.Status().Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^optimistic: Status\(\).Patch of Deployment: MergeFromWithOptimisticLock$`
	_ = c.Status().Patch(ctx, d, client.MergeFrom(base))                                                  // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock$`
	_ = c.Status().Patch(ctx, d, client.RawPatch("application/merge-patch+json", nil))                    // want `^unresolved: Status\(\).Patch of Deployment: client.RawPatch$`
	_ = c.Status().Update(ctx, d)                                                                         // want `^optimistic: Status\(\).Update of Deployment`
	d.SetResourceVersion("")
	_ = c.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: resourceVersion cleared before Update$`

	_ = c.Status().Apply(ctx, appsv1ac.Deployment("a", "b").WithStatus(appsv1ac.DeploymentStatus().WithReplicas(1))) // want `^blind: Status\(\).Apply of Deployment: server-side apply without resourceVersion$`
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
