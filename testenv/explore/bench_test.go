package explore_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// BenchmarkParallelSearch measures schedules per second of one
// exhaustive search (the correct Gizmo reconciler with the Gizmo replaced
// or deleted and the Widget resized anywhere, depth 3) at Parallel 1 and
// 2, on two embedded API servers and on two fake worlds, with the CPU the
// process used (cores: CPU seconds per second) and per schedule. Every
// run must give the same verdict as the first; on the servers, the
// requests the explorer sent them per schedule, where a schedule's time
// goes (docs/benchmarks.md):
//
//	cd testenv && go test ./explore/ -run '^$' -bench ParallelSearch -benchtime 3x -count 3
func BenchmarkParallelSearch(b *testing.B) {
	scheme := runtime.NewScheme()
	if err := testv1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	var envs []*testServer
	for range 2 {
		env, err := startServer("embedded", scheme)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(env.stop)
		envs = append(envs, env)
	}
	s := gizmoScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize)
	counted := []*countingServer{{env: envs[0]}, {env: envs[1]}}
	for _, backend := range []struct {
		name string
		b    explore.Backend
	}{
		{"server", explore.Server(counted[0], counted[1])},
		{"fake", explore.FakeWorlds(2, scheme, &testv1.Widget{})},
	} {
		want := ""
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/parallel=%d", backend.name, p), func(b *testing.B) {
				o := explore.Options{Backend: backend.b, Parallel: p, Depth: benchDepth(), Budget: searchBound, StopAtFirst: true}
				var schedules, pruned, speculative int
				var wall, cpu time.Duration
				requests0 := counted[0].total() + counted[1].total()
				for range b.N {
					cpu0, t0 := cpuTime(b), time.Now()
					res, err := explore.Run(context.Background(), s, o)
					wall, cpu = wall+time.Since(t0), cpu+cpuTime(b)-cpu0
					if err != nil {
						b.Fatal(err)
					}
					if want == "" {
						want = verdict(res)
					}
					if got := verdict(res); got != want {
						b.Fatalf("parallel %d:\n%s\nwant:\n%s", p, got, want)
					}
					schedules, pruned, speculative = schedules+res.Schedules, pruned+res.Pruned, speculative+res.Speculative
				}
				b.ReportMetric(float64(schedules)/wall.Seconds(), "schedules/s")
				b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cores")
				b.ReportMetric(float64(cpu.Milliseconds())/float64(schedules), "cpu-ms/schedule")
				b.ReportMetric(float64(speculative)/float64(b.N), "speculative/op")
				b.ReportMetric(float64(schedules)/float64(b.N), "schedules/op")
				b.ReportMetric(float64(pruned)/float64(b.N), "pruned/op")
				if backend.name == "server" {
					requests := counted[0].total() + counted[1].total() - requests0
					b.ReportMetric(float64(requests)/float64(schedules), "requests/schedule")
				}
			})
		}
	}
}

// benchDepth is the benchmarks' search depth: 3, or 1 with -short, a
// search of a few schedules that checks a documented command runs
// (TestBenchmarksPageRunsAsWritten), not its figures.
func benchDepth() int {
	if testing.Short() {
		return 1
	}
	return 3
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
