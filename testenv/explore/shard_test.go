package explore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// shardChild marks the test binary run again as one shard of the search.
const shardChild = "EXPLORE_TEST_SHARD_CHILD"

// orderReconciler breaks an invariant that depends on the order of two
// user actions on a Widget of size 1: grow then double (size 4) is an
// error forever, double then grow (size 3) a panic.
type orderReconciler struct{ api client.Reader }

func (r orderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch w.Spec.Size {
	case 4:
		return ctrl.Result{}, errors.New("size 4: grown, then doubled")
	case 3:
		panic("size 3: doubled, then grown")
	}
	return ctrl.Result{}, nil
}

func sizeAction(name string, f func(int32) int32) explore.Action {
	return explore.Action{Name: name, Run: func(ctx context.Context, c client.Client) error {
		w := &testv1.Widget{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
			return err
		}
		w.Spec.Size = f(w.Spec.Size)
		return c.Update(ctx, w)
	}}
}

// shardedSearch is a random search of a fixed seed and number of
// schedules, with two violations to find, in several schedules each.
func shardedSearch(t *testing.T) (explore.Scenario, explore.Options) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(_ client.Client, api client.Reader) reconcile.Reconciler { return orderReconciler{api} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}, Spec: testv1.WidgetSpec{Size: 1}}},
		Actions: []explore.Action{
			sizeAction("grow", func(n int32) int32 { return n + 1 }),
			sizeAction("double", func(n int32) int32 { return 2 * n }),
		},
	}
	return s, explore.Options{Backend: explore.Fake(widgetScheme(t), &testv1.Widget{}), Seed: 7, Schedules: 24, Depth: 3}
}

// TestShardsMergeToTheWholeSearch runs a random search whole, then as
// three shards, each a process of its own (this test binary run again,
// the shard from the environment as an Indexed Job or a CI matrix gives
// it), each writing its report; the merged reports name the same
// violations, each once, with the same replays, as the whole search.
func TestShardsMergeToTheWholeSearch(t *testing.T) {
	if os.Getenv(shardChild) != "" {
		runShard(t)
		return
	}
	dir := t.TempDir()
	s, o := shardedSearch(t)
	o.Report = filepath.Join(dir, "whole.json")
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := report.Read(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Violations) < 2 || len(res.Violations) != len(whole.Violations) || whole.Ran != o.Schedules {
		t.Fatalf("the whole search: %d violations (report: %d) in %d schedules; want at least 2 in %d", len(res.Violations), len(whole.Violations), whole.Ran, o.Schedules)
	}

	const n = 3
	var reports []report.Report
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestShardsMergeToTheWholeSearch$", "-test.count=1")
		env := []string{shardChild + "=1", "EXPLORE_REPORT=" + path}
		if i == 1 { // as a Kubernetes Indexed Job gives it
			env = append(env, report.EnvShards+fmt.Sprintf("=%d", n), report.EnvJobIndex+fmt.Sprintf("=%d", i))
		} else { // as a CI matrix
			env = append(env, report.EnvShard+fmt.Sprintf("=%d/%d", i, n))
		}
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("shard %d/%d: %v\n%s", i, n, err, out)
		}
		r, err := report.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Shards) != 1 || r.Shards[0] != (explore.Shard{Index: i, Count: n}) {
			t.Fatalf("shard %d/%d's report is of shards %v", i, n, r.Shards)
		}
		reports = append(reports, r)
	}
	merged, err := explore.MergeReports(reports...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(merged), summary(whole); got != want {
		t.Fatalf("shards 0..%d merged:\n%s\nthe whole search:\n%s", n-1, got, want)
	}
	if _, err := explore.MergeReports(reports[0], reports[2]); err == nil || !strings.Contains(err.Error(), "shard 1/3 missing") {
		t.Fatalf("merging without shard 1: %v", err)
	}
	t.Logf("%s", merged)
}

// runShard is the child: one shard of the search, its report written.
func runShard(t *testing.T) {
	s, o := shardedSearch(t)
	shard, err := explore.ShardFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	o.Shard, o.Report = shard, os.Getenv("EXPLORE_REPORT")
	if _, err := explore.Run(t.Context(), s, o); err != nil {
		t.Fatal(err)
	}
}

// summary is what the whole search and the merged shards must agree on.
func summary(r report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, %d schedules, %d run\n", r.Seed, r.Schedules, r.Ran)
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "schedule %d: %s: %s\n  replay %s\n", v.Schedule, v.Invariant, uids.ReplaceAllString(v.Message, "UID"), v.Replay)
	}
	return b.String()
}

// Sharding splits a fixed set of random schedules: it needs Seed and
// Schedules.
func TestShardNeedsSeedAndSchedules(t *testing.T) {
	s, o := shardedSearch(t)
	for _, tc := range []struct {
		seed      int64
		schedules int
		shard     explore.Shard
		want      string
	}{
		{0, 0, explore.Shard{Index: 1, Count: 2}, "Options.Shard needs Options.Seed and Options.Schedules"},
		{7, 0, explore.Shard{Index: 1, Count: 2}, "Options.Shard needs Options.Seed and Options.Schedules"},
		{0, 5, explore.Shard{}, "Options.Schedules needs Options.Seed"},
		{7, 5, explore.Shard{Index: 2, Count: 2}, "want 0 <= index < count"},
	} {
		o.Seed, o.Schedules, o.Shard = tc.seed, tc.schedules, tc.shard
		if _, err := explore.Run(t.Context(), s, o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("seed %d, schedules %d, shard %v: %v, want %q", tc.seed, tc.schedules, tc.shard, err, tc.want)
		}
	}
}
