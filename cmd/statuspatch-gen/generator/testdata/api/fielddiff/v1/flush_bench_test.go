package v1_test

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
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"

	fielddiffv1 "example.com/goldens/api/fielddiff/v1"
)

// The Flush benchmarks of the generated patcher (its field-by-field status
// diff), beside the same write through the reflection path and by hand,
// on a Deployment-shaped kind. patcher/bench_test.go documents the method;
// make bench (hack/bench) turns the results into ratios.

// sizedDeploy returns a Deploy whose spec and status marshal to roughly
// specKB and statusKB kilobytes.
func sizedDeploy(specKB, statusKB int) *fielddiffv1.Deploy {
	d := &fielddiffv1.Deploy{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 3, ResourceVersion: "1"},
		Spec:       appsv1.DeploymentSpec{Paused: true},
		Status:     appsv1.DeploymentStatus{Replicas: 1},
	}
	for i := range specKB { // ~1 KB per container
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{
			Name:  "c" + strconv.Itoa(i),
			Image: "registry.example.com/team/image:" + strings.Repeat("v", 40),
			Args:  []string{"--flag=" + strings.Repeat("a", 200), "--other=" + strings.Repeat("b", 200)},
			Env:   []corev1.EnvVar{{Name: "A", Value: strings.Repeat("x", 200)}, {Name: "B", Value: strings.Repeat("y", 200)}},
		})
	}
	for i := range statusKB { // ~1 KB per condition
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{
			Type: appsv1.DeploymentConditionType("Cond" + strconv.Itoa(i)), Status: corev1.ConditionTrue,
			Reason: "Fine", Message: strings.Repeat("m", 900),
			LastUpdateTime: metav1.Unix(1700000000, 0), LastTransitionTime: metav1.Unix(1700000000, 0),
		})
	}
	return d
}

// serverClient answers status patches without a server: it computes the
// body, as the real client does before sending, and answers with the object
// the server would store (the caller's object, which holds the change, at
// the next resourceVersion), copied into the response object as decoding
// the response would. Every variant pays that copy.
func serverClient(b *testing.B, live **fielddiffv1.Deploy) client.Client {
	s := runtime.NewScheme()
	if err := fielddiffv1.AddToScheme(s); err != nil {
		b.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).Build()
	return interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(_ context.Context, _ client.Client, _ string, obj client.Object, p client.Patch, _ ...client.SubResourcePatchOption) error {
			if _, err := p.Data(obj); err != nil {
				return err
			}
			stored := (*live).DeepCopy()
			rv, _ := strconv.Atoi(stored.ResourceVersion)
			stored.ResourceVersion = strconv.Itoa(rv + 1)
			*obj.(*fielddiffv1.Deploy) = *stored
			return nil
		},
	})
}

func deployStatus(d *fielddiffv1.Deploy) any { return &d.Status }

// The variants: one reconcile's write of one changed status field.
var writes = []struct {
	name  string
	write func(c client.Client, obj *fielddiffv1.Deploy, i int) error
}{
	{"generated", func(c client.Client, obj *fielddiffv1.Deploy, i int) error {
		p := fielddiffv1.NewDeployStatusPatcher(c, obj, patcher.WithMetrics(nil))
		obj.Status.ReadyReplicas = int32(i)
		return p.Flush(ctx)
	}},
	{"reflection", func(c client.Client, obj *fielddiffv1.Deploy, i int) error {
		p := patcher.NewWithStatus(c, obj, deployStatus, patcher.WithMetrics(nil))
		obj.Status.ReadyReplicas = int32(i)
		return p.Flush(ctx)
	}},
	{"mergefrom-optimistic", func(c client.Client, obj *fielddiffv1.Deploy, i int) error {
		base := obj.DeepCopy()
		obj.Status.ReadyReplicas = int32(i)
		return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	}},
}

func runWrites(b *testing.B, name string, specKB, statusKB int, noop bool) {
	for _, v := range writes {
		b.Run(name+"/"+v.name, func(b *testing.B) {
			obj := sizedDeploy(specKB, statusKB)
			c := serverClient(b, &obj)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n := i + 2
				if noop {
					n = int(obj.Status.ReadyReplicas)
				}
				if err := v.write(c, obj, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGeneratedFlush: one small status field changes, then the write,
// on a small object, a large spec and statuses of 1, 10 and 100 KB.
func BenchmarkGeneratedFlush(b *testing.B) {
	runWrites(b, "small", 0, 0, false)
	runWrites(b, "large-spec", 100, 5, false)
	for _, kb := range []int{1, 10, 100} {
		runWrites(b, fmt.Sprintf("status-%dKB", kb), 1, kb, false)
	}
}

// BenchmarkGeneratedNoop: a reconcile that changes nothing, against the
// DeepEqual guard users write by hand.
func BenchmarkGeneratedNoop(b *testing.B) {
	for _, size := range []struct {
		name             string
		specKB, statusKB int
	}{{"small", 0, 0}, {"large-spec", 100, 5}, {"status-100KB", 1, 100}} {
		for _, v := range []struct {
			name  string
			write func(c client.Client, obj *fielddiffv1.Deploy) error
		}{
			{"generated", func(c client.Client, obj *fielddiffv1.Deploy) error {
				return fielddiffv1.NewDeployStatusPatcher(c, obj, patcher.WithMetrics(nil)).Flush(ctx)
			}},
			{"reflection", func(c client.Client, obj *fielddiffv1.Deploy) error {
				return patcher.NewWithStatus(c, obj, deployStatus, patcher.WithMetrics(nil)).Flush(ctx)
			}},
			{"deepequal-guard", func(c client.Client, obj *fielddiffv1.Deploy) error {
				base := obj.DeepCopy()
				if equality.Semantic.DeepEqual(base.Status, obj.Status) {
					return nil
				}
				return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}},
		} {
			b.Run(size.name+"/"+v.name, func(b *testing.B) {
				obj := sizedDeploy(size.specKB, size.statusKB)
				c := serverClient(b, &obj)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := v.write(c, obj); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
