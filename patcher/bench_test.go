package patcher_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// The benchmarks compare a status write through the patcher with what users
// write by hand today, excluding the network: the client records the patch
// body (computing it is where MergeFrom spends its time) and answers with a
// new resourceVersion, as the server would. make bench (hack/bench) turns
// the results into ratios.

// sizedDeployment returns a Deployment whose spec and status marshal to
// roughly specKB and statusKB kilobytes.
func sizedDeployment(specKB, statusKB int) *appsv1.Deployment {
	d := deployment()
	d.ResourceVersion = "1"
	for i := 0; specKB > 0 && i < specKB; i++ { // ~1 KB per container
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{
			Name:  "c" + strconv.Itoa(i),
			Image: "registry.example.com/team/image:" + strings.Repeat("v", 40),
			Args:  []string{"--flag=" + strings.Repeat("a", 200), "--other=" + strings.Repeat("b", 200)},
			Env:   []corev1.EnvVar{{Name: "A", Value: strings.Repeat("x", 200)}, {Name: "B", Value: strings.Repeat("y", 200)}},
		})
	}
	for i := 0; statusKB > 0 && i < statusKB; i++ { // ~1 KB per condition
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{
			Type: appsv1.DeploymentConditionType("Cond" + strconv.Itoa(i)), Status: corev1.ConditionTrue,
			Reason: "Fine", Message: strings.Repeat("m", 900),
			LastUpdateTime: metav1.Unix(1700000000, 0), LastTransitionTime: metav1.Unix(1700000000, 0),
		})
	}
	return d
}

// recordingClient answers status patches without a server: it computes the
// body, as the real client does before sending, and answers with the object
// the server would store (*live, the caller's object, which holds the
// change, at the next resourceVersion), copied into the response object as
// decoding the response would. Every variant pays that copy.
func recordingClient(b *testing.B, live **appsv1.Deployment) (client.Client, *int) {
	c, _, _ := newClient(b)
	var bytesSent int
	return interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(_ context.Context, _ client.Client, _ string, obj client.Object, p client.Patch, _ ...client.SubResourcePatchOption) error {
			data, err := p.Data(obj)
			if err != nil {
				return err
			}
			bytesSent += len(data)
			stored := (*live).DeepCopy()
			rv, _ := strconv.Atoi(stored.ResourceVersion)
			stored.ResourceVersion = strconv.Itoa(rv + 1)
			*obj.(*appsv1.Deployment) = *stored
			return nil
		},
	}), &bytesSent
}

// deploymentStatus is the accessor generated code passes.
func deploymentStatus(d *appsv1.Deployment) any { return &d.Status }

var sizes = []struct {
	name             string
	specKB, statusKB int
}{
	{"small", 0, 0},
	{"large", 100, 5},
}

// flushWithPatcher is one reconcile's status write through the patcher, as
// generated code makes it.
func flushWithPatcher(c client.Client, obj *appsv1.Deployment, i int) error {
	p := patcher.NewWithStatus(c, obj, deploymentStatus, patcher.WithMetrics(nil))
	obj.Status.ReadyReplicas = int32(i)
	return p.Flush(ctx)
}

// flushWithMergeFrom is the same write as users write it by hand today.
func flushWithMergeFrom(c client.Client, obj *appsv1.Deployment, i int) error {
	base := obj.DeepCopy()
	obj.Status.ReadyReplicas = int32(i)
	return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// BenchmarkFlush: one status change, then the write.
func BenchmarkFlush(b *testing.B) {
	for _, size := range sizes {
		for _, v := range []struct {
			name  string
			write func(c client.Client, obj *appsv1.Deployment, i int) error
		}{
			{"patcher", flushWithPatcher},
			{"mergefrom-optimistic", flushWithMergeFrom},
			{"mergefrom-optimistic-deepequal", func(c client.Client, obj *appsv1.Deployment, i int) error {
				base := obj.DeepCopy()
				obj.Status.ReadyReplicas = int32(i)
				if equality.Semantic.DeepEqual(base.Status, obj.Status) {
					return nil
				}
				return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}},
		} {
			b.Run(fmt.Sprintf("%s/%s", size.name, v.name), func(b *testing.B) {
				obj := sizedDeployment(size.specKB, size.statusKB)
				c, _ := recordingClient(b, &obj)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := v.write(c, obj, i+1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNoop: a reconcile that changes nothing.
func BenchmarkNoop(b *testing.B) {
	for _, size := range sizes {
		for _, v := range []struct {
			name  string
			write func(c client.Client, obj *appsv1.Deployment) error
		}{
			{"patcher", func(c client.Client, obj *appsv1.Deployment) error {
				return patcher.NewWithStatus(c, obj, deploymentStatus, patcher.WithMetrics(nil)).Flush(ctx)
			}},
			{"deepequal-guard", func(c client.Client, obj *appsv1.Deployment) error {
				base := obj.DeepCopy()
				if equality.Semantic.DeepEqual(base.Status, obj.Status) {
					return nil
				}
				return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}},
			{"unconditional", func(c client.Client, obj *appsv1.Deployment) error {
				base := obj.DeepCopy()
				return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}},
		} {
			b.Run(fmt.Sprintf("%s/%s", size.name, v.name), func(b *testing.B) {
				obj := sizedDeployment(size.specKB, size.statusKB)
				c, sent := recordingClient(b, &obj)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := v.write(c, obj); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(*sent)/float64(b.N), "bytes-sent/op")
			})
		}
	}
}

// BenchmarkFlushScaling: how the cost of one status change grows with the
// size of the status (the spec stays small), for the patcher and the
// handwritten optimistic MergeFrom.
func BenchmarkFlushScaling(b *testing.B) {
	for _, statusKB := range []int{1, 10, 100} {
		for _, v := range []struct {
			name  string
			write func(c client.Client, obj *appsv1.Deployment, i int) error
		}{
			{"patcher", flushWithPatcher},
			{"mergefrom-optimistic", flushWithMergeFrom},
		} {
			b.Run(fmt.Sprintf("status-%dKB/%s", statusKB, v.name), func(b *testing.B) {
				obj := sizedDeployment(1, statusKB)
				c, _ := recordingClient(b, &obj)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := v.write(c, obj, i+1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCycle: the whole write cycle of one reconcile on a large status
// (100 KB of conditions beside a 1 KB spec): make the patcher (its deep
// copy of the base), change one small field, Flush; against the same cycle
// by hand: DeepCopy, the change, an equality.Semantic.DeepEqual guard and a
// Patch with MergeFromWithOptimisticLock. The client is the recording
// client above: the request is the same in both, so the cycle's CPU cost
// is what differs.
func BenchmarkCycle(b *testing.B) {
	for _, v := range []struct {
		name  string
		write func(c client.Client, obj *appsv1.Deployment, i int) error
	}{
		{"patcher", flushWithPatcher},
		{"handwritten", func(c client.Client, obj *appsv1.Deployment, i int) error {
			base := obj.DeepCopy()
			obj.Status.ReadyReplicas = int32(i)
			if equality.Semantic.DeepEqual(base.Status, obj.Status) {
				return nil
			}
			return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		}},
	} {
		b.Run("status-100KB/"+v.name, func(b *testing.B) {
			obj := sizedDeployment(1, 100)
			c, _ := recordingClient(b, &obj)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := v.write(c, obj, i+1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
