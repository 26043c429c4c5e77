package realops

import (
	"testing"
	"time"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// BenchmarkRealOperatorSearch measures schedules per second of 30 random
// schedules (Seed 1) of two real operators' scenarios, each on the full
// API of its own: RabbitMQ's cluster-operator (TestExploreRabbitmqCluster's
// scenario and bounds) and KubeRay (TestExploreRayCluster's), KubeRay also
// at Parallel 2 on two servers (ray-parallel2). The search
// time excludes the minimisation of what it finds; the log gives the
// verdict, which must not depend on the explorer's speed
// (docs/benchmarks.md):
//
//	cd examples/realops && GOWORK=off go test -run '^$' -bench RealOperatorSearch -benchtime 1x
func BenchmarkRealOperatorSearch(b *testing.B) {
	const schedules = 30
	b.Run("rabbitmq", func(b *testing.B) {
		env := start(b, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
		ce := newCountingEnv(b, env)
		clientset, err := kubernetes.NewForConfig(ce.Config) // the operator's own, counted as its
		if err != nil {
			b.Fatal(err)
		}
		counted := *env
		counted.Config = ce.Config
		benchSearch(b, rabbitmqScenario(&counted, clientset),
			explore.Options{Backend: explore.Server(ce), Versions: 2, StaleReads: 1, Seed: 1, Schedules: schedules}, ce)
	})
	b.Run("ray", func(b *testing.B) {
		env := startRay(b)
		s := rayScenario(func(mgr manager.Manager) error { // as main.go
			return ray.NewReconciler(b.Context(), mgr, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
		})
		ce := newCountingEnv(b, env)
		benchSearch(b, s, explore.Options{Backend: explore.Server(ce), Depth: 2, Versions: 3, StaleReads: 6, Seed: 1, Schedules: schedules}, ce)
	})
	b.Run("ray-parallel2", func(b *testing.B) { // the same search on two servers at once
		env, env2 := startRay(b), startRay(b)
		s := rayScenario(func(mgr manager.Manager) error {
			return ray.NewReconciler(b.Context(), mgr, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
		})
		benchSearch(b, s, explore.Options{Backend: explore.Server(env, env2), Parallel: 2, Depth: 2, Versions: 3, StaleReads: 6, Seed: 1, Schedules: schedules}, nil)
	})
}

// benchSearch runs s with o b.N times and reports schedules per second
// of search time; every run must give the first one's verdict. With ce
// (o's server, counted) it logs the requests a schedule by verb, resource
// and caller, and kube-apiserver's own count of them. It reports the CPU
// a schedule of this process and of its kube-apiservers.
func benchSearch(b *testing.B, s explore.Scenario, o explore.Options, ce *countingEnv) {
	var n int
	var elapsed time.Duration
	want := ""
	var sent map[string]int
	var served map[string]float64
	if ce != nil {
		sent = ce.counts()
		var err error
		if served, err = serverRequests(b.Context(), ce.env); err != nil {
			b.Fatal(err)
		}
	}
	self0, servers0 := cpu()
	for range b.N {
		res, err := explore.Run(b.Context(), s, o)
		if err != nil {
			b.Fatal(err)
		}
		got := ""
		for _, v := range res.Violations {
			got += v.Invariant + " " + v.Seed + "\n"
		}
		if want == "" {
			want = got
			b.Logf("%d schedules, %d violations:\n%s", res.Schedules, len(res.Violations), got)
		}
		if got != want {
			b.Fatalf("verdict:\n%s\nwant the first run's:\n%s", got, want)
		}
		n, elapsed = n+res.Schedules, elapsed+res.Elapsed
	}
	self1, servers1 := cpu()
	b.ReportMetric(float64(n)/elapsed.Seconds(), "schedules/s")
	b.ReportMetric(float64((self1-self0).Milliseconds())/float64(max(n, 1)), "test-CPU-ms/schedule")
	b.ReportMetric(float64((servers1-servers0).Milliseconds())/float64(max(n, 1)), "apiserver-CPU-ms/schedule")
	if ce != nil {
		b.ReportMetric(perSchedule(b, sent, ce.counts(), n), "requests/schedule")
		after, err := serverRequests(b.Context(), ce.env)
		if err != nil {
			b.Fatal(err)
		}
		logServer(b, served, after, n)
	}
	b.ReportMetric(float64(n)/float64(b.N), "schedules/op")
}
