package patchers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// BenchmarkCycleShapes is one reconcile's whole status write on a large
// status of several shapes, as the reconcile pays it, through the generated
// RolloutStatusPatcher and by hand (DeepCopy, the change, an
// equality.Semantic.DeepEqual guard and Status().Patch with
// MergeFromWithOptimisticLock). One small field (completedSteps) changes
// each time. The client is controller-runtime's, reading from a cache (each
// Get a deep copy of the cached object, as the manager's cache makes) and
// writing to an in-memory server (heldServer) whose answer, the stored
// object's JSON, it decodes as against a cluster. Paths:
//
//   - new: the reconcile reads the object from the cache and makes the
//     patcher over it with NewRolloutStatusPatcher;
//   - fetch: FetchRolloutStatusPatcher reads it (through the same cache).
//
// The handwritten cycle reads with Get in both. The floor is what any
// writer pays whatever it compares: the read and the write of a patch it
// already has, whose answer the client decodes. Besides the time, each
// reports the process's CPU time per cycle (cpu-ns/op, garbage collection
// included), which moves less than the time on a shared machine.
// hack/benchratio prints the ratios:
//
//	cd examples && go test ./internal/patchers -run '^$' -bench CycleShapes -benchmem -count 6 | go run ../hack/benchratio -ours generated
//
// The server-side cost that both pay is in BenchmarkServerCycle.
func BenchmarkCycleShapes(b *testing.B) {
	for _, shape := range cycleShapes {
		for _, path := range []string{"new", "fetch"} {
			for _, v := range heldVariants(path) {
				b.Run(shape.name+"/"+path+"/"+v.name, func(b *testing.B) {
					obj := shape.make()
					obj.Status.CompletedSteps = 1
					_, c := newHeldServer(b, obj)
					key := client.ObjectKeyFromObject(obj)
					b.ReportAllocs()
					b.ResetTimer()
					cpu := processCPU()
					for i := 0; i < b.N; i++ {
						if err := v.cycle(context.Background(), c, key, int32(i%1000)+2); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// heldVariants are the cycles of BenchmarkCycleShapes on one path: the
// read, the change of completedSteps to n, the write.
func heldVariants(path string) []struct {
	name  string
	cycle func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error
} {
	generated := func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error {
		obj := &demov1.Rollout{}
		if err := c.Get(ctx, key, obj); err != nil {
			return err
		}
		p := patchers.NewRolloutStatusPatcher(c, obj, patcher.WithMetrics(nil))
		p.Status().CompletedSteps = n
		return p.Flush(ctx)
	}
	if path == "fetch" {
		generated = func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error {
			p, err := patchers.FetchRolloutStatusPatcher(ctx, c, key, patcher.WithMetrics(nil))
			if err != nil {
				return err
			}
			p.Status().CompletedSteps = n
			return p.Flush(ctx)
		}
	}
	return []struct {
		name  string
		cycle func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error
	}{
		{"generated", generated},
		{"handwritten", func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error {
			obj := &demov1.Rollout{}
			if err := c.Get(ctx, key, obj); err != nil {
				return err
			}
			return handwrittenWrite(ctx, c, obj, n)
		}},
		// The floor of any writer: the read, and the one patch sent as
		// bytes already known, its answer decoded. No comparison, no copy.
		{"floor", func(ctx context.Context, c client.Client, key client.ObjectKey, n int32) error {
			obj := &demov1.Rollout{}
			if err := c.Get(ctx, key, obj); err != nil {
				return err
			}
			body := append([]byte(`{"metadata":{"resourceVersion":"`), obj.ResourceVersion...)
			body = strconv.AppendInt(append(body, `"},"status":{"completedSteps":`...), int64(n), 10)
			return c.Status().Patch(ctx, obj, client.RawPatch(types.MergePatchType, append(body, "}}"...)))
		}},
	}
}

// cycleShapes are statuses of about 100 KB held in different shapes.
var cycleShapes = []struct {
	name string
	make func() *demov1.Rollout
}{
	// 2000 strings of about 50 bytes in one atomic list (the plan's steps).
	{"strings-2000", func() *demov1.Rollout {
		r := benchRollout()
		for i := 0; i < 2000; i++ {
			r.Status.Plan.Steps = append(r.Status.Plan.Steps, "step-"+strconv.Itoa(i)+"-"+strings.Repeat("s", 40))
		}
		return r
	}},
	// 100 conditions of about 1 KB (a keyed list of structs).
	{"conditions-100", func() *demov1.Rollout {
		r := benchRollout()
		for i := 0; i < 100; i++ {
			r.Status.Conditions = append(r.Status.Conditions, metav1.Condition{
				Type: "Cond" + strconv.Itoa(i), Status: metav1.ConditionTrue, Reason: "Fine",
				Message: strings.Repeat("m", 900), LastTransitionTime: metav1.Unix(1700000000, 0),
			})
		}
		return r
	}},
	// Both at half size.
	{"mixed", func() *demov1.Rollout {
		r := benchRollout()
		for i := 0; i < 1000; i++ {
			r.Status.Plan.Steps = append(r.Status.Plan.Steps, "step-"+strconv.Itoa(i)+"-"+strings.Repeat("s", 40))
		}
		for i := 0; i < 50; i++ {
			r.Status.Conditions = append(r.Status.Conditions, metav1.Condition{
				Type: "Cond" + strconv.Itoa(i), Status: metav1.ConditionTrue, Reason: "Fine",
				Message: strings.Repeat("m", 900), LastTransitionTime: metav1.Unix(1700000000, 0),
			})
		}
		return r
	}},
}

func benchRollout() *demov1.Rollout {
	return &demov1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "bench", Namespace: "default", ResourceVersion: "1", Generation: 1},
		Spec:       demov1.RolloutSpec{Version: "v1"},
		Status: demov1.RolloutStatus{
			ObservedGeneration: 1, Phase: demov1.RolloutProgressing,
			Plan: &demov1.RolloutPlan{ID: "p1", Generation: 1, Version: "v1", Steps: []string{"build"}},
		},
	}
}

var cycleVariants = []struct {
	name  string
	write func(ctx context.Context, c client.Client, obj *demov1.Rollout, n int32) error
}{
	{"generated", func(ctx context.Context, c client.Client, obj *demov1.Rollout, n int32) error {
		p := patchers.NewRolloutStatusPatcher(c, obj, patcher.WithMetrics(nil))
		p.Status().CompletedSteps = n
		return p.Flush(ctx)
	}},
	{"handwritten", handwrittenWrite},
}

// handwrittenWrite is the status write by hand: DeepCopy, the change, a
// Semantic.DeepEqual guard, an optimistic merge patch.
func handwrittenWrite(ctx context.Context, c client.Client, obj *demov1.Rollout, n int32) error {
	base := obj.DeepCopy()
	obj.Status.CompletedSteps = n
	if equality.Semantic.DeepEqual(base.Status, obj.Status) {
		return nil
	}
	return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// BenchmarkServerCycle is the cycle a reconcile pays on the in-process API
// server: read the object (a direct Get: the cache's deep copy is the same
// for both variants), change one small field, write it, for each shape of
// BenchmarkCycleShapes. Here the server's work and the decoding of its
// answer, paid by both variants alike, are in the figure; the ratio is what
// a user measures from outside. The benchmark also reports the time spent
// waiting for the server (server-ns/op: inside the transport's RoundTrip,
// until the answer's headers) and the rest (client-ns/op: the client's own
// work, decoding the answers included), so that what the patcher can change
// is told apart from what it cannot.
//
//	cd examples && go test ./internal/patchers -run '^$' -bench ServerCycle -benchmem -count 6 | go run ../hack/benchratio -ours generated
func BenchmarkServerCycle(b *testing.B) {
	b.Run("embedded", func(b *testing.B) { serverCycle(b) })
	// The full API: kube-apiserver in its own process (its work is not in
	// this process's bytes and allocations; etcd, in-process, still is),
	// where testenv-assets has built it.
	b.Run("fullapi", func(b *testing.B) {
		if _, _, err := testenv.KubeAPIServerPath(); err != nil {
			b.Skip(err)
		}
		serverCycle(b, testenv.WithFullAPI())
	})
}

func serverCycle(b *testing.B, opts ...testenv.Option) {
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		b.Fatal(err)
	}
	env := testenv.Start(b, append([]testenv.Option{testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s)}, opts...)...)
	var waited time.Duration // in RoundTrip; the benchmark is sequential
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			t0 := time.Now()
			resp, err := next.RoundTrip(req)
			waited += time.Since(t0)
			return resp, err
		})
	})
	c, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
	if err != nil {
		b.Fatal(err)
	}
	runs := 0
	for _, shape := range cycleShapes {
		for _, v := range cycleVariants {
			b.Run(shape.name+"/"+v.name, func(b *testing.B) {
				runs++ // the framework runs each sub-benchmark more than once
				obj := shape.make()
				obj.Name = "cycle-" + strconv.Itoa(runs)
				obj.ResourceVersion = ""
				status := obj.Status
				if err := env.Client.Create(ctx, obj); err != nil {
					b.Fatal(err)
				}
				obj.Status = status
				if err := env.Client.Status().Update(ctx, obj); err != nil {
					b.Fatal(err)
				}
				key := client.ObjectKeyFromObject(obj)
				b.ReportAllocs()
				b.ResetTimer()
				waited = 0
				start := time.Now()
				for i := 0; i < b.N; i++ {
					cur := &demov1.Rollout{}
					if err := c.Get(ctx, key, cur); err != nil {
						b.Fatal(err)
					}
					if err := v.write(ctx, c, cur, int32(i%1000)+1); err != nil {
						b.Fatal(err)
					}
				}
				total := time.Since(start)
				b.ReportMetric(float64(waited.Nanoseconds())/float64(b.N), "server-ns/op")
				b.ReportMetric(float64((total-waited).Nanoseconds())/float64(b.N), "client-ns/op")
			})
		}
	}
}
