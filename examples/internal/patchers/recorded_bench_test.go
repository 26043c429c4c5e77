package patchers_test

import (
	"context"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// BenchmarkRecordedCycle is the status write of a reconcile that holds the
// object (issue 81): each iteration makes the patcher over it with
// NewRolloutStatusPatcher, changes one small field (completedSteps) and
// flushes; by hand, DeepCopy, the change, an equality.Semantic.DeepEqual
// guard and Status().Patch with MergeFromWithOptimisticLock. Both write
// through the same client, which records each request (its body computed
// as the real client computes it) and answers with the object the server
// would store, copied into the response object as decoding would: the
// requests and the answer are the same, so the ratio is the write's own
// cost. Each iteration must send exactly one request. The decode of a real
// answer, which every writer pays, is in BenchmarkCycleShapes.
//
//	cd examples && go test -vet=off ./internal/patchers -run '^$' -bench RecordedCycle -benchmem -count 6 | go run ../hack/benchratio -ours generated
func BenchmarkRecordedCycle(b *testing.B) {
	for _, shape := range cycleShapes {
		for _, v := range cycleVariants {
			b.Run(shape.name+"/"+v.name, func(b *testing.B) {
				obj := shape.make()
				c, sent := recordingRolloutClient(b, &obj)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := v.write(context.Background(), c, obj, int32(i%1000)+1); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				if *sent != b.N {
					b.Fatalf("%d requests for %d writes, want one each", *sent, b.N)
				}
			})
		}
	}
}

// recordingRolloutClient answers status patches without a server: it
// computes the body, counts the request, and answers with *live, the
// caller's object (which holds the change), at the next resourceVersion,
// copied into the response object.
func recordingRolloutClient(b *testing.B, live **demov1.Rollout) (client.Client, *int) {
	scheme := runtime.NewScheme()
	if err := demov1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	var sent int
	c := interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme).Build(), interceptor.Funcs{
		SubResourcePatch: func(_ context.Context, _ client.Client, _ string, obj client.Object, p client.Patch, _ ...client.SubResourcePatchOption) error {
			if _, err := p.Data(obj); err != nil {
				return err
			}
			sent++
			stored := (*live).DeepCopy()
			rv, _ := strconv.Atoi(stored.ResourceVersion)
			stored.ResourceVersion = strconv.Itoa(rv + 1)
			*obj.(*demov1.Rollout) = *stored
			return nil
		},
	})
	return c, &sent
}
