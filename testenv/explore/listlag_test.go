package explore_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// scaler keeps one Gizmo per Widget, as "scale expectations" code does: it
// counts the Widget's Gizmos by a cached List and creates one when it sees
// none, then records status.observedGeneration. With generateName (the
// bug) a List that has not yet seen the last create makes it create a
// second; with a fixed name (fixedName, correct) the second create fails
// with AlreadyExists, which it takes as done.
type scaler struct {
	c         client.Client
	fixedName bool
	// unstructured lists the Gizmos as unstructured objects.
	unstructured bool
}

// count is the number of the Widget's Gizmos a cached List shows.
func (r *scaler) count(ctx context.Context, w *testv1.Widget) (int, error) {
	opts := []client.ListOption{client.InNamespace(w.Namespace), client.MatchingLabels{"widget": w.Name}}
	if r.unstructured {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(testv1.GroupVersion.WithKind("GizmoList"))
		err := r.c.List(ctx, l, opts...)
		return len(l.Items), err
	}
	var l testv1.GizmoList
	err := r.c.List(ctx, &l, opts...)
	return len(l.Items), err
}

func (r *scaler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	n, err := r.count(ctx, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	if n == 0 {
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Labels: map[string]string{"widget": w.Name}}}
		if r.fixedName {
			g.Name = w.Name
		} else {
			g.GenerateName = w.Name + "-"
		}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); err != nil && (!r.fixedName || !apierrors.IsAlreadyExists(err)) {
			return ctrl.Result{}, err
		}
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

func scalerScenario(fixedName bool) explore.Scenario {
	return scalerOf(scaler{fixedName: fixedName})
}

func scalerOf(rec scaler) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "scaler", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				r := rec
				r.c = c
				return &r
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			var l testv1.GizmoList
			if err := r.List(ctx, &l, client.InNamespace("ns")); err != nil {
				return err
			}
			if len(l.Items) != 1 {
				return fmt.Errorf("%d Gizmos for Widget ns/w, want 1", len(l.Items))
			}
			return nil
		},
	}
}

var gizmoName = regexp.MustCompile(`^Gizmo ns/w-[b-z2-9]{5}$`)

// A cached List is served by its kind's informer, which may not have seen
// the last create yet: the scaler that counts its Gizmos by List creates a
// second one. The report shows the List that left the first out, and the
// seed replays the schedule, Gizmos named alike (generateName's names come
// from the explorer).
func TestLaggedListFindsDuplicateCreate(t *testing.T) {
	res, err := explore.Run(t.Context(), scalerScenario(false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("want the user invariant broken by 2 Gizmos, got:\n%v", v)
	}
	t.Log(v)
	if !strings.Contains(v.String(), ": not listed (cache, list, STALE: newest is v2)") {
		t.Fatalf("the report does not show the lagged List:\n%s", v)
	}
	created := createdGizmos(v.Steps)
	if len(created) != 2 || !gizmoName.MatchString(created[0]) || !gizmoName.MatchString(created[1]) {
		t.Fatalf("want two Gizmos created by generateName, got %q:\n%s", created, v)
	}
	o := serverOptions(t)
	o.Replay = v.Seed
	again, err := explore.Run(t.Context(), scalerScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Violation == nil || again.Violation.Invariant != v.Invariant || again.Diverged != "" {
		t.Fatalf("replay %q: want the same violation, no divergence, got %q:\n%v", v.Seed, again.Diverged, again.Violation)
	}
	if got := createdGizmos(again.Violation.Steps); strings.Join(got, ",") != strings.Join(created, ",") {
		t.Fatalf("replay %q created %q, the search %q", v.Seed, got, created)
	}
}

// createdGizmos lists the Gizmos the steps created.
func createdGizmos(steps []explore.Step) []string {
	var out []string
	for _, st := range steps {
		for _, w := range st.Writes {
			if w.Verb == "create" && w.Answer == "ok" && strings.HasPrefix(w.Object, "Gizmo ") {
				out = append(out, w.Object)
			}
		}
	}
	return out
}

// The scaler that creates its Gizmo under a fixed name lists too, and may
// see a lagged List, but is correct: no violation, every schedule's cached
// reads (Lists included) within what one informer per kind and
// representation can serve.
func TestLaggedListNoFalseAlarm(t *testing.T) {
	res, schedules, err := explore.RunSteps(t.Context(), scalerScenario(true), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	missing := 0
	for _, steps := range schedules {
		if err := monotonic(steps); err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			for _, rd := range st.Reads {
				if rd.Missing {
					missing++
				}
			}
		}
	}
	if missing == 0 {
		t.Fatalf("no List left a Gizmo out in %d schedules: the test tests nothing", len(schedules))
	}
}

// A kind the operator's manager options (Scenario.Manager) disable for the
// cache is listed fresh: the scaler's bug, which needs a lagged List, is
// not reported, and every List of Gizmos is uncached.
func TestManagerOptionsDisableForListsFresh(t *testing.T) {
	s := scalerScenario(false)
	s.Manager = &manager.Options{Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&testv1.Gizmo{}}}}}
	res, schedules, err := explore.RunSteps(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	listed := 0
	for _, steps := range schedules {
		for _, st := range steps {
			for _, rd := range st.Reads {
				if !strings.HasPrefix(rd.Object, "Gizmo ") {
					continue
				}
				if !rd.Uncached || rd.Version != rd.Newest || rd.Missing {
					t.Fatalf("step %d read %+v, want the newest Gizmo, uncached:\n%s", st.Index, rd, stepsString(steps))
				}
				listed++
			}
		}
	}
	if listed == 0 {
		t.Fatal("no Gizmo listed: the test tests nothing")
	}
}

// A manager's client reads unstructured objects uncached unless its
// options say Client.Cache.Unstructured: the scaler that lists its Gizmos
// unstructured has its bug only with that option set (Scenario.Manager).
func TestManagerOptionsUnstructured(t *testing.T) {
	for _, tc := range []struct {
		name    string
		manager *manager.Options
		found   bool
	}{
		{"default", nil, false},
		{"cached", &manager.Options{Client: client.Options{Cache: &client.CacheOptions{Unstructured: true}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := scalerOf(scaler{unstructured: true})
			s.Manager = tc.manager
			res, err := explore.Run(t.Context(), s, serverOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			if found := res.Violation != nil; found != tc.found || (!found && !res.Exhausted) {
				t.Fatalf("want a violation %t (or the search exhausted), got exhausted %t:\n%v", tc.found, res.Exhausted, res.Violation)
			}
		})
	}
}
