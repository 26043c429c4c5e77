package explore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// expecter keeps one Gizmo per Widget with "scale expectations", as
// KubeRay keeps its head Pod: it remembers, in memory, the Gizmo it
// created, and creates none while a cached Get does not show that one.
// listFirst lists the Gizmos before it checks the expectation (the order
// of KubeRay's head Pod, the bug): the List may come from before the
// create and the Get, a moment later, from after it, so the expectation is
// met and the empty List makes a second Gizmo. Checking the expectation
// first (the order of kube-controller-manager's ReplicaSet controller) is
// correct: once a Get has shown the Gizmo, no later List of the same
// informer can leave it out.
type expecter struct {
	c         client.Client
	listFirst bool
	// listWorkers lists, after its create, the Gizmos of another label
	// (none), as KubeRay lists its worker Pods after creating the head.
	listWorkers bool
	expected    string
}

func (r *expecter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var l testv1.GizmoList
	list := func() error {
		return r.c.List(ctx, &l, client.InNamespace(w.Namespace), client.MatchingLabels{"widget": w.Name})
	}
	if r.listFirst {
		if err := list(); err != nil {
			return ctrl.Result{}, err
		}
	}
	if r.expected != "" {
		err := r.c.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: r.expected}, &testv1.Gizmo{})
		if apierrors.IsNotFound(err) {
			return ctrl.Result{RequeueAfter: time.Second}, nil // the cache has not seen our create yet
		}
		if err != nil {
			return ctrl.Result{}, err
		}
		r.expected = ""
	}
	if !r.listFirst {
		if err := list(); err != nil {
			return ctrl.Result{}, err
		}
	}
	if len(l.Items) > 0 {
		return ctrl.Result{}, nil
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, GenerateName: w.Name + "-", Labels: map[string]string{"widget": w.Name}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Create(ctx, g); err != nil {
		return ctrl.Result{}, err
	}
	r.expected = g.Name
	if r.listWorkers {
		return ctrl.Result{}, r.c.List(ctx, &testv1.GizmoList{}, client.InNamespace(w.Namespace), client.MatchingLabels{"role": "worker"})
	}
	return ctrl.Result{}, nil
}

func expecterScenario(listFirst bool) explore.Scenario {
	return expecterOf(expecter{listFirst: listFirst})
}

func expecterOf(e expecter) explore.Scenario {
	s := scalerScenario(false) // its Widget and its invariant: one Gizmo
	s.Reconcilers = []explore.Reconciler{{Name: "expecter", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
		New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
			r := e
			r.c = c
			return &r
		}}}
	return s
}

// A cached List pins nothing: a Get later in the same reconcile may see a
// newer version than the List did (the informer moved on in between), never
// an older one. The expecter that lists before it checks its expectation
// is found creating a second Gizmo, with the List that left the first out
// and the Get that saw it in one step; the one that checks first passes
// every schedule, each within what one informer per kind and representation
// can serve.
func TestLaggedListThenNewerGet(t *testing.T) {
	res, err := explore.Run(t.Context(), expecterScenario(true), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("list before expectations: want the user invariant broken by 2 Gizmos, got:\n%v", v)
	}
	t.Log(v)
	listedThenGot := false
	for _, st := range v.Steps {
		missing := map[string]bool{}
		for _, rd := range st.Reads {
			if rd.Missing {
				missing[rd.Object] = true
			} else if !rd.List && missing[rd.Object] && rd.Version == rd.Newest {
				listedThenGot = true // a Get, after the List, saw the newest
			}
		}
	}
	if !listedThenGot {
		t.Fatalf("no step read the newest version of a Gizmo its List had left out:\n%s", v)
	}

	res, schedules, err := explore.RunSteps(t.Context(), expecterScenario(false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("expectations before the list: want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	for _, steps := range schedules {
		if err := monotonic(steps); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d schedules without violation", len(schedules))
}

// A cached List with a label selector shows only what it matches: the
// informer may be at any point that gives that list, the oldest included,
// so it pins no object it leaves out as seen. The expecter that lists its
// other Gizmos (none) right after its create, as KubeRay lists its worker
// Pods after creating the head Pod, is still found creating a second
// Gizmo; had that List pinned the new Gizmo, no later List could leave it
// out.
func TestFilteredListPinsOnlyWhatItMatches(t *testing.T) {
	res, err := explore.Run(t.Context(), expecterOf(expecter{listFirst: true, listWorkers: true}), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("a List of other labels after the create: want the user invariant broken by 2 Gizmos, got:\n%v", v)
	}
	if err := monotonic(v.Steps); err != nil { // the minimised schedule is one an informer can produce
		t.Fatal(err)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
}
