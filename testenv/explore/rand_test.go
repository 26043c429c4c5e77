package explore_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// namedGizmo creates a Gizmo under a name of its own choosing and records
// the name and a UUID of its own in the Widget's status.
type namedGizmo struct {
	c    client.Client
	api  client.Reader
	name func(prefix string) string
	uuid func() string
	gen  bool // generateName instead (the server's randomness)
}

func (r *namedGizmo) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil || (w.Status.Plan != nil && w.Status.Plan.ID != "") {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace}}
	if r.gen {
		g.GenerateName = w.Name + "-"
	} else {
		g.Name = r.name(w.Name + "-")
	}
	if err := r.c.Create(ctx, g); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Plan = &testv1.WidgetPlan{ID: g.Name, Steps: []string{r.uuid(), string(g.UID)}}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func namedScenario(mk func(c client.Client) *namedGizmo) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				r := mk(c)
				r.c, r.api = c, api
				return r
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// A replay runs twice and says where the operator's own random names made
// the runs differ; names and UUIDs from explore.SourceOf, and the server's
// own UIDs and generated names, do not.
func TestReplayReportsOwnRandomness(t *testing.T) {
	random := func(string) string { return "w-" + strconv.FormatUint(rand.Uint64(), 36) }
	randomUUID := func() string { return strconv.FormatUint(rand.Uint64(), 16) }
	for _, tc := range []struct {
		name string
		mk   func(c client.Client) *namedGizmo
		want string
	}{
		{"random name", func(client.Client) *namedGizmo {
			return &namedGizmo{name: random, uuid: func() string { return "fixed" }}
		},
			`step 1 (widget reconciles Widget ns/w), write 1: "create Gizmo ns/w-`},
		{"random uuid", func(c client.Client) *namedGizmo {
			return &namedGizmo{name: explore.SourceOf(c).Name, uuid: randomUUID}
		}, "write 2 (status patch Widget ns/w: ok) made status.plan.steps"},
		{"seeded", func(c client.Client) *namedGizmo {
			src := explore.SourceOf(c)
			return &namedGizmo{name: src.Name, uuid: func() string { return string(src.UID()) }}
		}, ""},
		{"generateName", func(c client.Client) *namedGizmo {
			return &namedGizmo{gen: true, uuid: func() string { return string(explore.SourceOf(c).UID()) }}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := serverOptions(t)
			o.Replay = "widget:ns/w@0"
			res, err := explore.Run(t.Context(), namedScenario(tc.mk), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil {
				t.Fatalf("violation: %s", res.Violation)
			}
			switch {
			case tc.want == "" && res.Diverged != "":
				t.Fatalf("want no divergence, got %s", res.Diverged)
			case tc.want != "" && (!strings.Contains(res.Diverged, tc.want) || !strings.Contains(res.Diverged, "explore.SourceOf")):
				t.Fatalf("want a divergence with %q, got %q", tc.want, res.Diverged)
			}
			t.Log(res.Diverged)
		})
	}
}

// SourceOf hands every schedule the same sequence, and a client from
// outside the explorer a random one.
func TestSourceOf(t *testing.T) {
	var names [][]string
	s := namedScenario(func(c client.Client) *namedGizmo {
		src := explore.SourceOf(c)
		return &namedGizmo{name: func(p string) string {
			n := src.Name(p)
			names[len(names)-1] = append(names[len(names)-1], n)
			return n
		}, uuid: func() string { return string(src.UID()) }}
	})
	o := serverOptions(t)
	for range 2 {
		names = append(names, nil)
		o.Replay = "widget:ns/w@0"
		if _, err := explore.Run(t.Context(), s, o); err != nil {
			t.Fatal(err)
		}
	}
	if len(names[0]) == 0 || strings.Join(names[0], ",") != strings.Join(names[1], ",") {
		t.Fatalf("names differ between runs: %q", names)
	}
	if !regexp.MustCompile(`^w-[b-z2-9]{5}$`).MatchString(names[0][0]) {
		t.Errorf("name %q, want w- and five generateName characters", names[0][0])
	}
	a, b := explore.SourceOf(fake.NewClientBuilder().Build()), explore.SourceOf(fake.NewClientBuilder().Build())
	uid := string(a.UID())
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(uid) {
		t.Errorf("UID %q is not a version 4 UUID", uid)
	}
	a1, b1 := a.Name("x-"), b.Name("x-")
	a2, b2 := a.Name("x-"), b.Name("x-")
	if a1 == b1 && a2 == b2 {
		t.Error("two sources outside the explorer gave the same names")
	}
}
