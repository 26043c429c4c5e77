package explore_test

import (
	"context"
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

const guardFinalizer = "explore.test/guard"

// guard adds its finalizer, then creates the Widget's Gizmo and marks the
// Widget Ready; once Ready, it checks through a metadata-only read (a
// cheap PartialObjectMetadata Get, as a helper shared with other
// controllers might) that its finalizer is still there, and when it is
// not takes the Widget as being let go and deletes the Gizmo. The typed
// read already showed the finalizer (Ready is set only after it), so
// with one informer per kind the metadata read, made after it, shows it
// too. controller-runtime serves the two reads from two informers
// (typed, metadata-only), each lagging on its own: the metadata read may
// be older than the typed read before it, and the Gizmo goes. With
// fromTyped the check reads the typed object it already has.
type guard struct {
	c         client.Client
	fromTyped bool
	// marker, when set, is where guard waits, before it creates the
	// Gizmo, for the Gizmo "marker" peek creates (read fresh).
	marker client.Reader
	// early: before adding its finalizer guard checks it metadata-only
	// too (a helper shared with other controllers), which starts the
	// metadata informer then, before the finalizer.
	early bool
}

func (r *guard) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !controllerutil.ContainsFinalizer(w, guardFinalizer) {
		if r.early && !r.fromTyped {
			m := &metav1.PartialObjectMetadata{}
			m.SetGroupVersionKind(testv1.GroupVersion.WithKind("Widget"))
			if err := r.c.Get(ctx, req.NamespacedName, m); err != nil || controllerutil.ContainsFinalizer(m, guardFinalizer) {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
		}
		base := w.DeepCopy()
		controllerutil.AddFinalizer(w, guardFinalizer)
		return ctrl.Result{}, r.c.Patch(ctx, w, client.MergeFrom(base))
	}
	if w.Status.Phase != "Ready" {
		if r.marker != nil {
			if err := r.marker.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: "marker"}, &testv1.Gizmo{}); err != nil {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
		}
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
		base := w.DeepCopy()
		w.Status.Phase = "Ready"
		return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
	}
	var held client.Object = w
	if !r.fromTyped {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(testv1.GroupVersion.WithKind("Widget"))
		if err := r.c.Get(ctx, req.NamespacedName, m); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		held = m
	}
	if !controllerutil.ContainsFinalizer(held, guardFinalizer) {
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
		return ctrl.Result{}, client.IgnoreNotFound(r.c.Delete(ctx, g))
	}
	return ctrl.Result{}, nil
}

func guardScenario(fromTyped bool) explore.Scenario { return guardScenarioOf(fromTyped, false) }

func guardScenarioOf(fromTyped, early bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "guard", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &guard{c: c, fromTyped: fromTyped, early: early}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// A metadata-only read is served by the kind's metadata informer, which
// lags on its own: after the typed read showed the finalizer, the
// metadata read may still show the Widget before it (issue 50), when
// the metadata informer started before the finalizer was added (here
// by guard's own check before adding it).
func TestMetadataInformerLagsOnItsOwn(t *testing.T) {
	o := serverOptions(t)
	res, err := explore.Run(t.Context(), guardScenarioOf(false, true), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantOwnDelete) {
		t.Fatalf("want %q, got %v (%d schedules)", explore.InvariantOwnDelete, v, res.Schedules)
	}
	// The deleting step read the Widget typed with the finalizer, then
	// metadata-only at an older version.
	found := false
	for _, st := range v.Steps {
		typed := 0
		for _, rd := range st.Reads {
			switch {
			case rd.Object != "Widget ns/w" || rd.API:
			case rd.Informer == "":
				typed = rd.Version
			case rd.Informer == "metadata-only" && rd.Version < typed:
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("no step read the Widget metadata-only older than typed:\n%s", v)
	}
	if !strings.Contains(v.String(), "(cache metadata-only, STALE") {
		t.Errorf("the report does not name the metadata-only informer:\n%s", v)
	}
	t.Logf("%d schedules:\n%s", res.Schedules, v)

	// Reading the finalizer from the typed object it holds, the same
	// reconciler deletes nothing.
	res, err = explore.Run(t.Context(), guardScenario(true), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the fixed guard exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
}

// An informer no controller watches starts at its first read, from the
// kind's watch cache on the one API server: at least as new as what the
// kind's other informers have served. guard's first metadata-only read
// comes after its typed read showed Ready, so after the finalizer: the
// metadata informer starts with it, and guard deletes nothing (before,
// the explorer served the first metadata read at v1, a schedule no
// single API server gives).
func TestLazyInformerStartsAtWhatOthersServed(t *testing.T) {
	res, err := explore.Run(t.Context(), guardScenario(false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	t.Logf("%d schedules (%d pruned)", res.Schedules, res.Pruned)
}

// everyInformer reads its Widget twice through each of the three
// informers of the kind: typed, unstructured and metadata-only, each a
// Get and a List.
type everyInformer struct{ c client.Client }

func (r *everyInformer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	gvk := testv1.GroupVersion.WithKind("Widget")
	for range 2 {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(gvk)
		for _, obj := range []client.Object{&testv1.Widget{}, u, m} {
			if err := r.c.Get(ctx, req.NamespacedName, obj); err != nil {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
		}
	}
	ul := &unstructured.UnstructuredList{}
	ul.SetGroupVersionKind(gvk.GroupVersion().WithKind("WidgetList"))
	ml := &metav1.PartialObjectMetadataList{}
	ml.SetGroupVersionKind(gvk.GroupVersion().WithKind("WidgetList"))
	for _, l := range []client.ObjectList{&testv1.WidgetList{}, ul, ml} {
		if err := r.c.List(ctx, l, client.InNamespace(req.Namespace)); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// Each informer's reads never go backwards, whatever its representation;
// across informers they may (the test fails if no schedule had one).
func TestEachInformerNeverGoesBackwards(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "reader", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &everyInformer{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
		Manager: &manager.Options{Client: client.Options{Cache: &client.CacheOptions{Unstructured: true}}},
	}
	o := serverOptions(t)
	o.Depth = 4
	o.StaleReads = 2
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, schedules, err := explore.RunSteps(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	across := map[string]bool{}
	for _, steps := range schedules {
		if err := monotonic(steps); err != nil {
			t.Fatal(err)
		}
		last := map[string]int{}
		for _, st := range steps {
			if strings.HasPrefix(st.Reconciler, "action ") {
				continue
			}
			for _, rd := range st.Reads {
				if rd.API || rd.Uncached {
					t.Fatalf("step %d: %s read fresh: the test wants every representation cached", st.Index, rd.Object)
				}
				if rd.Version < last[rd.Object] {
					across[rd.Informer] = true
				}
				last[rd.Object] = rd.Version
			}
		}
	}
	for _, rep := range []string{"", "unstructured", "metadata-only"} {
		if !across[rep] {
			t.Errorf("no read through the %q informer was older than a read before it through another: the test tests nothing", rep)
		}
	}
	t.Logf("%d schedules (%d pruned)", res.Schedules, res.Pruned)
}

// peek reads its Widget metadata-only and creates the Gizmo "marker"
// guard waits for, once: it moves the metadata informer's floor, which
// the objects and the queue do not show.
type peek struct {
	c   client.Client
	api client.Reader
}

func (r *peek) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(testv1.GroupVersion.WithKind("Widget"))
	if err := r.c.Get(ctx, req.NamespacedName, m); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	key := client.ObjectKey{Namespace: req.Namespace, Name: "marker"}
	if err := r.api.Get(ctx, key, &testv1.Gizmo{}); !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}})
}

// Two schedules that reach the same objects and queue with the metadata
// informer at different versions are different states: the one whose
// informer has served less may still serve guard's finalizer check
// stale. With one stale read, only "peek, guard, guard, guard" breaks
// (peek read v1, before the finalizer, and guard's check reads it
// again); "guard, peek, guard" reaches the same objects and queue first,
// with the metadata informer at v2, and a state hash without each
// informer's floor would prune the schedule that breaks. Windows end with
// their reconcile here: with windows across reconciles "guard, peek,
// guard, guard" breaks too, peek's stale metadata read opening a window
// that guard's check reads through two steps later, and the search meets
// it first.
func TestPruningKeepsEachInformersFloor(t *testing.T) {
	s := guardScenario(false)
	s.Reconcilers = []explore.Reconciler{
		{Name: "guard", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { return &guard{c: c, marker: api} }},
		{Name: "peek", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { return &peek{c: c, api: api} }},
	}
	o := serverOptions(t)
	o.Depth, o.StaleReads = 4, 1
	res, err := explore.RunWindowsOfOneReconcile(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantOwnDelete) {
		t.Fatalf("want %q, got %v (%d schedules, %d pruned)", explore.InvariantOwnDelete, v, res.Schedules, res.Pruned)
	}
	if !strings.HasPrefix(v.Seed, "peek:") {
		t.Errorf("want the schedule that starts with peek, got %s", v.Seed)
	}
	t.Logf("%d schedules (%d pruned):\n%s", res.Schedules, res.Pruned, v)
}
