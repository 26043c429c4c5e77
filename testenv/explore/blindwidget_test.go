package explore_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// blindWrite is the body of a reconciler that patches Widget w blind:
// it changes w, read from the cache, as it decides, and says whether to
// write it (false: leave it, nothing sent).
type blindWrite func(ctx context.Context, c client.Client, w *testv1.Widget) (bool, error)

// blindPatcher is the New of a reconciler that reads Widget key from the
// cache (gone: done), lets write change it, and sends what it changed by
// a MergeFrom patch of what it read: no resourceVersion, so nothing
// refuses it where the read was stale (the lost-write tests' writer).
func blindPatcher(key types.NamespacedName, write blindWrite) func(client.Client, client.Reader) reconcile.Reconciler {
	return func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			w := &testv1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			old := w.DeepCopy()
			if ok, err := write(ctx, c, w); !ok || err != nil {
				return reconcile.Result{}, err
			}
			return reconcile.Result{}, c.Patch(ctx, w, client.MergeFrom(old))
		})
	}
}

// blindScenario is a scenario of one reconciler, name, of for's kind,
// that patches Widget key blind (blindPatcher), on objects, with the
// user's actions.
func blindScenario(name string, forKind client.Object, key types.NamespacedName, write blindWrite,
	objects []client.Object, actions ...explore.Action) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: name, For: forKind, New: blindPatcher(key, write)}},
		Objects:     objects,
		Actions:     actions,
	}
}

// annotate is the user's action that reads Widget key and sets each
// annotation kv names (key, value, key, value...), by an update of what
// it read.
func annotate(key types.NamespacedName, kv ...string) func(context.Context, client.Client) error {
	return func(ctx context.Context, c client.Client) error {
		w := &testv1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		for i := 0; i+1 < len(kv); i += 2 {
			w.Annotations[kv[i]] = kv[i+1]
		}
		return c.Update(ctx, w)
	}
}

// lostCase is a case of replayLostCases: the scenario's variant (with
// says which) and the lost write wanted ("": no violation).
type lostCase struct {
	name string
	with bool
	lost string
}

// replayLostCases replays replay of build(tc.with) for each case, as
// replayLost does, each a subtest.
func replayLostCases(t *testing.T, build func(bool) explore.Scenario, replay string, cases ...lostCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			replayLost(t, build(tc.with), explore.Options{Replay: replay}, tc.lost)
		})
	}
}

// replayLost replays o.Replay of s on the test server (o's Backend when
// nil), twice without diverging, and wants a lost write whose report
// says lost, or, for "", no violation.
func replayLost(t *testing.T, s explore.Scenario, o explore.Options, lost string) {
	t.Helper()
	if o.Backend == nil {
		o.Backend = explore.Server(server(t))
	}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	v := res.Violation
	if lost == "" {
		if v != nil {
			t.Fatalf("want no violation, got:\n%v", v)
		}
		return
	}
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), lost) {
		t.Fatalf("want a lost write of %q, got:\n%v", lost, v)
	}
}
