package explore_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// gizmoMaker keeps one Gizmo per Widget. It finds the Widget's Gizmos in
// a cache of its own, built from the manager's config for one namespace
// (trust-manager's target cache), and creates through a client built from
// the same config. checksOwnCreate also lists again right after its
// create and, not finding the Gizmo, takes the create for lost and makes
// another: a cache does not have the reconcile's own write yet.
type gizmoMaker struct {
	c               client.Client
	direct          client.Client
	gizmos          cache.Cache
	checksOwnCreate bool
	// discovers builds the cache and the client without the manager's
	// RESTMapper: each makes its own, by discovery through the config.
	discovers bool
	// mapper, if set, is the cache's and the client's RESTMapper.
	mapper meta.RESTMapper
}

func (r *gizmoMaker) SetupWithManager(mgr ctrl.Manager) error {
	mapper := mgr.GetRESTMapper()
	switch {
	case r.discovers:
		mapper = nil
	case r.mapper != nil:
		mapper = r.mapper
	}
	gizmos, err := cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient: mgr.GetHTTPClient(), Scheme: mgr.GetScheme(), Mapper: mapper,
		DefaultNamespaces: map[string]cache.Config{"ns": {}},
	})
	if err != nil {
		return fmt.Errorf("gizmo cache: %w", err)
	}
	if err := mgr.Add(gizmos); err != nil {
		return err
	}
	direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mapper})
	if err != nil {
		return err
	}
	r.c, r.direct, r.gizmos = mgr.GetClient(), direct, gizmos
	ownerMapper := mgr.GetRESTMapper()
	if r.mapper != nil {
		ownerMapper = r.mapper
	}
	return ctrl.NewControllerManagedBy(mgr).For(&testv1.Widget{}).
		WatchesRawSource(source.Kind(gizmos, &testv1.Gizmo{},
			handler.TypedEnqueueRequestForOwner[*testv1.Gizmo](mgr.GetScheme(), ownerMapper, &testv1.Widget{}, handler.OnlyControllerOwner()))).
		Complete(r)
}

func (r *gizmoMaker) owned(ctx context.Context, w *testv1.Widget) (int, error) {
	var list testv1.GizmoList
	if err := r.gizmos.List(ctx, &list, client.InNamespace(w.Namespace)); err != nil {
		return 0, err
	}
	n := 0
	for _, g := range list.Items {
		if metav1.IsControlledBy(&g, w) {
			n++
		}
	}
	return n, nil
}

func (r *gizmoMaker) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensureGizmo(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	// The Widget's metadata through the second cache starts an informer
	// at this first read: after a crash at the create above, too.
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: testv1.GroupVersion.String(), Kind: "Widget"}}
	if err := r.gizmos.Get(ctx, req.NamespacedName, m); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.direct.Status().Update(ctx, w)
}

func (r *gizmoMaker) ensureGizmo(ctx context.Context, w *testv1.Widget) error {
	for tries := 0; tries < 2; tries++ {
		n, err := r.owned(ctx, w)
		if err != nil || n > 0 {
			return err
		}
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, GenerateName: w.Name + "-"}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return err
		}
		if err := r.direct.Create(ctx, g); err != nil || !r.checksOwnCreate {
			return err
		}
	}
	return nil
}

func gizmoMakerScenario(rec gizmoMaker) explore.Scenario {
	return explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			r := rec
			return r.SetupWithManager(mgr)
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize, deleteGizmos},
		Invariant: func(ctx context.Context, c client.Reader) error {
			var list testv1.GizmoList
			if err := c.List(ctx, &list, client.InNamespace("ns")); err != nil {
				return err
			}
			if len(list.Items) > 1 {
				return fmt.Errorf("%d Gizmos for one Widget", len(list.Items))
			}
			return nil
		},
	}
}

// deleteGizmos is kubectl delete of the Widget's Gizmos.
var deleteGizmos = explore.Action{Name: "delete-gizmos", Run: func(ctx context.Context, c client.Client) error {
	return c.DeleteAllOf(ctx, &testv1.Gizmo{}, client.InNamespace("ns"))
}}

// A Setup that builds a second cache from mgr.GetConfig() (one namespace,
// added with mgr.Add) and a client from it runs: the cache's reads see
// every write made before the step (a Gizmo created by an earlier step,
// through the client, which records it, is found: no second one), none
// made in it (the reconcile that checks its own create through the cache
// makes a second Gizmo), and the seed replays that schedule.
func TestSetupSecondCacheFromConfig(t *testing.T) {
	res, err := explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{}), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("correct reconciler on a second cache: want no violation, every schedule run; got %+v\n%v", res, res.Violation)
	}

	// A crash restart stops the process's cache and Setup builds a new
	// one, cold, whose first list is the book's newest.
	o := serverOptions(t)
	o.Crashes = 1
	res, err = explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{}), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("correct reconciler on a second cache, with a crash: want no violation, every schedule run; got %+v\n%v", res, res.Violation)
	}

	// Without the manager's RESTMapper, each maps kinds by discovery
	// through the config.
	res, err = explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{discovers: true}), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("correct reconciler, mapping by discovery: want no violation, every schedule run; got %+v\n%v", res, res.Violation)
	}

	res, err = explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{checksOwnCreate: true}), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("create checked through the second cache: want the user invariant's 2 Gizmos, got:\n%v", v)
	}
	o = serverOptions(t)
	o.Replay = v.Seed
	again, err := explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{checksOwnCreate: true}), o)
	if err != nil || again.Violation == nil || again.Diverged != "" || again.Violation.Message != v.Message || !reflect.DeepEqual(again.Violation.Steps, v.Steps) {
		t.Fatalf("replay of %q: %v, diverged %q:\n%v\nwant:\n%v", v.Seed, err, again.Diverged, again.Violation, v)
	}
}

// labelledGizmo is trust-manager's target cache in small: a cache of the
// labelled Gizmos only (DefaultLabelSelector), watched metadata-only, and
// read by a reconciler that keeps the Widget's Gizmo labelled: not in the
// cache, it creates it, and when it exists unlabelled, labels it by a
// merge patch, both through a client built from the manager's config.
type labelledGizmo struct {
	c, direct client.Client
	targets   cache.Cache
}

const targetLabel = "explore.statuspatch.dev/target"

func (r *labelledGizmo) SetupWithManager(mgr ctrl.Manager) error {
	sel, err := labels.Parse(targetLabel)
	if err != nil {
		return err
	}
	targets, err := cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient: mgr.GetHTTPClient(), Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper(),
		ReaderFailOnMissingInformer: true,
		DefaultLabelSelector:        sel,
		DefaultNamespaces:           map[string]cache.Config{"ns": {}},
	})
	if err != nil {
		return err
	}
	if err := mgr.Add(targets); err != nil {
		return err
	}
	direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
	if err != nil {
		return err
	}
	r.c, r.direct, r.targets = mgr.GetClient(), direct, targets
	gizmoMeta := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: testv1.GroupVersion.String(), Kind: "Gizmo"}}
	return ctrl.NewControllerManagedBy(mgr).Named("bundle").For(&testv1.Widget{}).
		WatchesRawSource(source.Kind(targets, gizmoMeta,
			handler.TypedEnqueueRequestForOwner[*metav1.PartialObjectMetadata](mgr.GetScheme(), mgr.GetRESTMapper(), &testv1.Widget{}, handler.OnlyControllerOwner()))).
		Complete(r)
}

func (r *labelledGizmo) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: testv1.GroupVersion.String(), Kind: "Gizmo"}}
	err := r.targets.Get(ctx, req.NamespacedName, m)
	if err == nil || !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name, Labels: map[string]string{targetLabel: "true"}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	err = r.direct.Create(ctx, g)
	if !apierrors.IsAlreadyExists(err) {
		return ctrl.Result{}, err
	}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"`+targetLabel+`":"true"}}}`))
	return ctrl.Result{}, r.direct.Patch(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}, patch)
}

// unlabel takes the Gizmo out of the target cache's selector.
var unlabel = explore.Action{Name: "unlabel", Run: func(ctx context.Context, c client.Client) error {
	patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"`+targetLabel+`":null}}}`))
	return client.IgnoreNotFound(c.Patch(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}, patch))
}}

// An object that leaves the second cache's label selector leaves the
// cache (the watch's deletion, as the API server sends it), and the
// metadata-only Kind source on that cache queues its owner: the reconciler
// that labels it again breaks nothing, its create and patch through the
// config's client recorded.
func TestSecondCacheLabelSelectorMetadataOnly(t *testing.T) {
	s := explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			r := &labelledGizmo{}
			return r.SetupWithManager(mgr)
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{unlabel},
		Invariant: func(ctx context.Context, c client.Reader) error {
			g := &testv1.Gizmo{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, g); err != nil {
				return err
			}
			if g.Labels[targetLabel] != "true" {
				return fmt.Errorf("the Gizmo is not labelled in a steady state: %v", g.Labels)
			}
			return nil
		},
	}
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation, every schedule run; got %+v\n%v", res, res.Violation)
	}
	t.Logf("%d schedules", res.Schedules)
}

// On the fake client the second cache runs the same: the config's
// transport serves the explorer's clients, whatever the backend. The fake
// client's RESTMapper maps nothing: the operator gives the cache one.
func TestSecondCacheOnFake(t *testing.T) {
	o := explore.Options{Backend: explore.Fake(widgetScheme(t), &testv1.Widget{}), Depth: 3, Budget: searchBound, StopAtFirst: true}
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{testv1.GroupVersion})
	mapper.Add(testv1.GroupVersion.WithKind("Widget"), meta.RESTScopeNamespace)
	mapper.Add(testv1.GroupVersion.WithKind("Gizmo"), meta.RESTScopeNamespace)
	mapper.Add(testv1.GroupVersion.WithKind("GizmoList"), meta.RESTScopeNamespace)
	res, err := explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{mapper: mapper}), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("correct reconciler on a second cache, fake backend: want no violation, every schedule run; got %+v\n%v", res, res.Violation)
	}
	res, err = explore.Run(t.Context(), gizmoMakerScenario(gizmoMaker{mapper: mapper, checksOwnCreate: true}), o)
	if err != nil || res.Violation == nil || !strings.Contains(res.Violation.Message, "2 Gizmos") {
		t.Fatalf("create checked through the second cache, fake backend: want 2 Gizmos, got %v\n%v", err, res.Violation)
	}
}

// A client's Watch through the manager's config (patcher.ForManager(mgr)
// makes a watcher of it) is refused at once, as the explorer's clients
// refuse Watch: only a cache's informers watch through it.
func TestConfigClientWatchRefused(t *testing.T) {
	var mu sync.Mutex
	var got error
	watched := false
	s := explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			wc, err := client.NewWithWatch(mgr.GetConfig(), client.Options{HTTPClient: mgr.GetHTTPClient(), Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
			if err != nil {
				return err
			}
			return ctrl.NewControllerManagedBy(mgr).For(&testv1.Widget{}).Complete(reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
				w, err := wc.Watch(ctx, &testv1.GizmoList{}, client.InNamespace("ns"))
				if err == nil {
					w.Stop()
				}
				mu.Lock()
				defer mu.Unlock()
				got, watched = err, true
				return reconcile.Result{}, nil
			}))
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	if _, err := explore.Run(t.Context(), s, o); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !watched || got == nil || !strings.Contains(got.Error(), "not to a client's Watch") {
		t.Fatalf("a client's Watch through the manager's config: want refused, got %v (watched %t)", got, watched)
	}
}
