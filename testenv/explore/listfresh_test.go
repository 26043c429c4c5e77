package explore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// twiceLister lists its Widget's Gizmos twice, creates one, and lists
// them again.
type twiceLister struct{ c client.Client }

func (r *twiceLister) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var l testv1.GizmoList
	for range 2 {
		if err := r.c.List(ctx, &l, client.InNamespace(req.Namespace)); err != nil {
			return ctrl.Result{}, err
		}
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
	if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.List(ctx, &l, client.InNamespace(req.Namespace))
}

// A List of a kind the schedule wrote nothing of since its last List
// asks the server for one at least as new as that one (its
// resourceVersion, NotOlderThan), which a watch cache serves at once
// where a List of the newest waits for it to reach etcd's revision
// (listfresh.go); the first List of a schedule, and the first after a
// write of the kind, ask for the newest. The cached Lists of twiceLister:
// newest, at least as new, (a create) newest, and in the next reconcile
// at least as new.
func TestListAtLeastAsNewWithoutAWrite(t *testing.T) {
	srv := &listTerms{Client: server(t).Client}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "lister", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &twiceLister{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: 3, Depth: 3, Budget: searchBound,
		Disable: []string{explore.InvariantObservedGenerationStuck}}) // it records no observedGeneration
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules != 3 {
		t.Fatalf("want 3 schedules without violation, got %d:\n%v", res.Schedules, res.Violation)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if want := "newest at-least newest at-least"; len(srv.terms) < 4 || fmt.Sprint(srv.terms[:4]) != "["+want+"]" {
		t.Errorf("the first Lists asked for %v, want %s", srv.terms, want)
	}
	if srv.stale != "" {
		t.Error(srv.stale)
	}
}

// listTerms records what each Gizmo List asks for (newest, at-least), and
// the first that asked for less than the newest after a create of one.
type listTerms struct {
	client.Client
	mu     sync.Mutex
	terms  []string
	wrote  bool
	stale  string
	listed bool
}

func (c *listTerms) ServerClient() client.Client { return c }

func (c *listTerms) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	c.mu.Lock()
	c.wrote = c.wrote || c.listed
	c.mu.Unlock()
	return c.Client.Create(ctx, obj, opts...)
}

func (c *listTerms) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if _, ok := list.(*testv1.GizmoList); ok {
		lo := (&client.ListOptions{}).ApplyOptions(opts)
		term := "newest"
		if lo.Raw != nil && lo.Raw.ResourceVersionMatch == metav1.ResourceVersionMatchNotOlderThan {
			term = "at-least"
		}
		c.mu.Lock()
		if c.wrote && term != "newest" && c.stale == "" {
			c.stale = fmt.Sprintf("List %d after a create asked for %s, want the newest", len(c.terms)+1, term)
		}
		c.terms, c.wrote, c.listed = append(c.terms, term), false, true
		c.mu.Unlock()
	}
	return c.Client.List(ctx, list, opts...)
}
