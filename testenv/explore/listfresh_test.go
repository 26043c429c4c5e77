package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
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

// A cached List of a scope (kind, namespace, labels) the schedule has
// listed from the server is served from the book, which holds every object
// it selects since (informers.Floors): twiceLister lists three times a
// reconcile, one List of each schedule goes to the server (the first).
// After the first schedule it asks for one at least as new as the
// previous schedule's newest Gizmo revision, whose empty answer is what
// the newest holds (Floors.AfterReset; srv.check compares it with a List of the
// newest). On main every schedule's asked for the newest.
func TestRepeatedListServedFromTheBook(t *testing.T) {
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
	if want := "[newest at-least at-least]"; fmt.Sprint(srv.terms) != want {
		t.Errorf("the Lists sent asked for %v, want %s: one a schedule", srv.terms, want)
	}
	srv.check(t)
}

// The record invariant's List in a steady state, and every other, asks
// for one at least as new as the schedule's newest write of the kind,
// never less: after a delete, whose answer names no revision, for the
// newest, until a later write's answer or a List of the newest says
// which revision holds it. The Gizmo search with its record (Widget
// status.plan.id, a Gizmo's UID), the Gizmo deleted and replaced
// anywhere: every List at least as new holds what a List of the newest
// sent right after it holds, none asks for the newest where the revision
// of the schedule's last Gizmo write is known (on main, every record
// check did), and the same verdicts: none for the correct reconciler,
// the deleted Gizmo's record for the one that trusts its record (its
// List after the delete asks for the newest).
func TestRecordListAtLeastAsNewAsTheWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      explore.Scenario
		want   string // the violation's invariant, "" for none
		newest bool   // some List after a delete must ask for the newest
	}{
		{"correct", gizmoScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize), "", false},
		{"trusts its record", gizmoScenario(gizmoReconciler{trustRecord: true}, deleteGizmo), explore.InvariantRecordLive, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &listTerms{Client: server(t).Client}
			res, err := explore.Run(t.Context(), tc.s, explore.Options{Backend: explore.Server(srv), Seed: 3, Schedules: 20, Depth: 4,
				Budget: searchBound, StopAtFirst: true})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Violation != nil {
				got = res.Violation.Invariant
			}
			if got != tc.want {
				t.Fatalf("violation %q, want %q:\n%v", got, tc.want, res.Violation)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			atLeast := 0
			for _, term := range srv.terms {
				if term == "at-least" {
					atLeast++
				}
			}
			newest := len(srv.terms) - atLeast
			t.Logf("%d schedules: %d Gizmo Lists at least as new, %d of the newest (%d after a delete)", res.Schedules, atLeast, newest, newest-srv.needless)
			if atLeast == 0 {
				t.Error("no List asked for one at least as new")
			}
			if tc.newest && newest-srv.needless == 0 {
				t.Error("no List after a delete")
			}
			if srv.needless > 0 {
				t.Errorf("%d of %d Gizmo Lists asked for the newest where the schedule knew its last write's revision", srv.needless, len(srv.terms))
			}
			srv.check(t)
		})
	}
}

// listTerms records what each Gizmo List asks for (newest, at-least),
// against the Gizmo writes it answered: a List at least as new must be
// at least as new as the last write answered, and none after a delete
// (no revision known) until a write or a List of the newest. Each List
// at least as new is compared with a List of the newest sent after it.
type listTerms struct {
	client.Client
	mu    sync.Mutex
	terms []string
	// floor is the newest revision answered of a Gizmo write or List;
	// deleted that a Gizmo delete came after it.
	floor   uint64
	deleted bool
	// needless counts Lists of the newest when floor was known.
	needless int
	// stale and differ are the first List that asked for less than the
	// writes need, and the first whose items a List of the newest did
	// not match.
	stale, differ string
}

func (c *listTerms) ServerClient() client.Client { return c }

// kindOf is obj's kind, typed or unstructured (as the explorer's reset
// and record check send theirs).
func (c *listTerms) kindOf(obj runtime.Object) string {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(gvk.Kind, "List")
}

func (c *listTerms) wrote(obj client.Object, err error) {
	if err != nil {
		return
	}
	if c.kindOf(obj) != "Gizmo" {
		return
	}
	if rv, perr := strconv.ParseUint(obj.GetResourceVersion(), 10, 64); perr == nil {
		c.mu.Lock()
		c.floor, c.deleted = max(c.floor, rv), false
		c.mu.Unlock()
	}
}

func (c *listTerms) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	err := c.Client.Create(ctx, obj, opts...)
	if c.kindOf(obj) == "Widget" && err == nil {
		// The setup's create: a schedule starts, which knows no
		// revision of a Gizmo yet.
		c.mu.Lock()
		c.floor, c.deleted = 0, false
		c.mu.Unlock()
	}
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	err := c.Client.Update(ctx, obj, opts...)
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	err := c.Client.Patch(ctx, obj, patch, opts...)
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	err := c.Client.Delete(ctx, obj, opts...)
	if c.kindOf(obj) == "Gizmo" && !apierrors.IsNotFound(err) {
		c.mu.Lock()
		c.deleted = true
		c.mu.Unlock()
	}
	return err
}

func (c *listTerms) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if c.kindOf(list) != "Gizmo" {
		return c.Client.List(ctx, list, opts...)
	}
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	term, at := "newest", uint64(0)
	if lo.Raw != nil && lo.Raw.ResourceVersionMatch == metav1.ResourceVersionMatchNotOlderThan {
		term = "at-least"
		at, _ = strconv.ParseUint(lo.Raw.ResourceVersion, 10, 64)
	}
	c.mu.Lock()
	n := len(c.terms) + 1
	switch {
	case term == "newest" && c.floor > 0 && !c.deleted:
		c.needless++
	case term == "newest":
	case c.deleted && c.stale == "":
		c.stale = fmt.Sprintf("List %d after a delete asked for at least %d, want the newest", n, at)
	case at < c.floor && c.stale == "":
		c.stale = fmt.Sprintf("List %d asked for at least %d, the last write answered %d", n, at, c.floor)
	}
	c.terms = append(c.terms, term)
	c.mu.Unlock()
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	if term == "at-least" {
		var newest testv1.GizmoList
		if err := c.Client.List(ctx, &newest, client.InNamespace(lo.Namespace)); err != nil {
			return err
		}
		if got, want := listed(list), listed(&newest); got != want {
			c.mu.Lock()
			if c.differ == "" {
				c.differ = fmt.Sprintf("List %d at least as new held %s, the newest %s", n, got, want)
			}
			c.mu.Unlock()
		}
	}
	if rv, err := strconv.ParseUint(list.GetResourceVersion(), 10, 64); err == nil {
		c.mu.Lock()
		c.floor = max(c.floor, rv)
		if term == "newest" {
			c.deleted = false
		}
		c.mu.Unlock()
	}
	return nil
}

// check fails t with the first List that asked for less than the writes
// need or held less than the newest.
func (c *listTerms) check(t *testing.T) {
	t.Helper()
	if c.stale != "" {
		t.Error(c.stale)
	}
	if c.differ != "" {
		t.Error(c.differ)
	}
}

// listed names each item of l at its resourceVersion.
func listed(l client.ObjectList) string {
	items, _ := meta.ExtractList(l)
	var out []string
	for _, it := range items {
		if o, ok := it.(client.Object); ok {
			out = append(out, o.GetName()+"@"+o.GetResourceVersion()+"/"+string(o.GetUID()))
		}
	}
	return fmt.Sprint(out)
}
