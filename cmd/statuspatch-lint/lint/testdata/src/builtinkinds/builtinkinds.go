// Package builtinkinds: status writes of built-in kinds (k8s.io/api's)
// the project generates no patcher for, as envtest's test helpers make
// them (no kubelet, no StatefulSet controller there). They are no
// handwritten writes to move onto a patcher: the default mode says
// nothing of an optimistic one (-audit gives its verdict), and reports a
// blind one by its verdict, with the lock fix.
package builtinkinds

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SetPodReady is lws's test helper's shape: Get, then Status().Update.
func SetPodReady(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var pod corev1.Pod
	if err := c.Get(ctx, key, &pod); err != nil {
		return err
	}
	pod.Labels = map[string]string{"ready": "true"}
	return c.Status().Update(ctx, &pod)
}

// SetReplicas updates a fetched Deployment's status.
func SetReplicas(ctx context.Context, c client.Client, d *appsv1.Deployment) error { // want SetReplicas:"why"
	d.Status.Replicas = 3
	return c.Status().Update(ctx, d)
}

// A blind merge patch of a built-in kind: reported by its verdict.
func Blind(ctx context.Context, c client.Client, d *appsv1.Deployment) error { // want Blind:"why"
	base := d.DeepCopy()
	d.Status.Replicas = 1
	return c.Status().Patch(ctx, d, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock$`
}

// A plain base reused by two patches of a built-in kind: both blind.
func BlindReused(ctx context.Context, c client.Client, d *appsv1.Deployment) error { // want BlindReused:"why"
	patch := client.MergeFrom(d.DeepCopy())
	d.Status.Replicas = 2
	if err := c.Status().Patch(ctx, d, patch); err != nil { // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock \(no fix: the base d.DeepCopy\(\) is taken at line 42, before the write of d at line 44, which moves the resourceVersion a lock would send; the same patch is sent again after it, at line 48: locked, that write would conflict`
		return err
	}
	d.Status.Replicas = 3
	return c.Status().Patch(ctx, d, patch) // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock \(no fix: the base d.DeepCopy\(\) is taken at line 42, before the write of d at line 44, which moves the resourceVersion a lock would send: locked, this patch would conflict`
}

// A strategic merge patch of a built-in kind, without the lock: blind.
func BlindStrategic(ctx context.Context, c client.Client, pod *corev1.Pod) error { // want BlindStrategic:"why"
	base := pod.DeepCopy()
	pod.Labels = nil
	return c.Status().Patch(ctx, pod, client.StrategicMergeFrom(base)) // want `^blind: Status\(\).Patch of Pod: `
}

// A blind patch of a built-in kind copied from its base, in a goroutine.
func BlindCopyInGoroutine(ctx context.Context, c client.Client, ds []*appsv1.Deployment) {
	for _, s := range ds {
		go func() {
			desired := s.DeepCopy()
			desired.Status.Replicas = 4
			_ = c.Status().Patch(ctx, desired, client.MergeFrom(s)) // want `^blind: Status\(\).Patch of Deployment: client.MergeFrom without optimistic lock$`
		}()
	}
}
