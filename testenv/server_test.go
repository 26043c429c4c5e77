package testenv_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
)

func testScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := errors.Join(testv1.AddToScheme(s), apiextensionsv1.AddToScheme(s)); err != nil {
		t.Fatal(err)
	}
	return s
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newWidget(ns, name string) *testv1.Widget {
	return &testv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       testv1.WidgetSpec{Size: 1, Data: "d"},
	}
}

// One embedded server for all behaviour checks: each start costs a second or
// two plus etcd. Subtests use their own namespace (namespaces need not exist
// on this server).
func TestEmbedded(t *testing.T) {
	env := testenv.Start(t,
		testenv.WithCRDDirectory(testapiCRDs),
		testenv.WithScheme(testScheme(t)),
		testenv.WithBackend(testenv.BackendEmbedded))
	if env.StartupTime <= 0 {
		t.Errorf("StartupTime = %v", env.StartupTime)
	}
	if env.Backend != testenv.BackendEmbedded {
		t.Errorf("Backend = %v", env.Backend)
	}
	t.Run("CreateDelaySkipped", func(t *testing.T) { testCreateDelaySkipped(t, env) })
	t.Run("FirstCreateIsFast", func(t *testing.T) { testFirstCreateIsFast(t, env) })
	t.Run("OptimisticLock", func(t *testing.T) { testOptimisticLock(t, env) })
	t.Run("StatusSubresource", func(t *testing.T) { testStatusSubresource(t, env) })
	t.Run("MergePatchSemantics", func(t *testing.T) { testMergePatchSemantics(t, env) })
	t.Run("ClusterScoped", func(t *testing.T) { testClusterScoped(t, env) })
	t.Run("Mapper", func(t *testing.T) { testMapper(t, env) })
	t.Run("ManagerWatch", func(t *testing.T) { testManagerWatch(t, env) })
}

// The apiextensions server sleeps 2s in a create that comes within 2s of
// its CRD becoming Established; Start keeps that out of tests' creates.
func testFirstCreateIsFast(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	began := time.Now()
	for _, obj := range []client.Object{newWidget("first", "w"), &testv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "first"}}} {
		if err := env.Client.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
		if err := env.Client.Delete(ctx, obj); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(began); took > 1500*time.Millisecond {
		t.Fatalf("first creates took %s: start-up did not wait out the new-CRD create delay", took)
	}
}

// The server checks resourceVersion on a status patch exactly when the patch
// carries one: an optimistic-lock merge patch from a stale base conflicts,
// a blind merge patch from the same base goes through.
func testOptimisticLock(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	c := env.Client
	w := newWidget("optimistic", "w")
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	stale := w.DeepCopy()

	// Someone else writes the status: the server's resourceVersion moves on.
	other := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), other); err != nil {
		t.Fatal(err)
	}
	other.Status.Phase = "Other"
	if err := c.Status().Update(ctx, other); err != nil {
		t.Fatal(err)
	}
	if other.ResourceVersion == stale.ResourceVersion {
		t.Fatal("status update did not change resourceVersion")
	}

	locked := stale.DeepCopy()
	locked.Status.Phase = "Locked"
	err := c.Status().Patch(ctx, locked, client.MergeFromWithOptions(stale, client.MergeFromWithOptimisticLock{}))
	if !apierrors.IsConflict(err) {
		t.Fatalf("optimistic-lock patch from a stale base: err = %v, want a 409 Conflict", err)
	}

	blind := stale.DeepCopy()
	blind.Status.Phase = "Blind"
	if err := c.Status().Patch(ctx, blind, client.MergeFrom(stale)); err != nil {
		t.Fatalf("blind merge patch from the same stale base: %v", err)
	}
	got := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != "Blind" {
		t.Fatalf("phase = %q after blind patch, want Blind", got.Status.Phase)
	}

	// And with a fresh base the optimistic lock passes.
	fresh := got.DeepCopy()
	got.Status.Phase = "Fresh"
	if err := c.Status().Patch(ctx, got, client.MergeFromWithOptions(fresh, client.MergeFromWithOptimisticLock{})); err != nil {
		t.Fatalf("optimistic-lock patch from a fresh base: %v", err)
	}
}

// The status subresource writes only status; the main resource only the rest.
func testStatusSubresource(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	c := env.Client
	w := newWidget("subresource", "w")
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	gen := w.Generation

	w.Spec.Size = 5
	w.Status.Phase = "Running"
	if err := c.Status().Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	got := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Size != 1 || got.Status.Phase != "Running" || got.Generation != gen {
		t.Fatalf("after a status write: size=%d phase=%q generation=%d, want size=1 phase=Running generation=%d",
			got.Spec.Size, got.Status.Phase, got.Generation, gen)
	}

	got.Spec.Size = 7
	got.Status.Phase = "Hacked"
	if err := c.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	again := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), again); err != nil {
		t.Fatal(err)
	}
	if again.Spec.Size != 7 || again.Status.Phase != "Running" || again.Generation != gen+1 {
		t.Fatalf("after a main-resource write: size=%d phase=%q generation=%d, want size=7 phase=Running generation=%d",
			again.Spec.Size, again.Status.Phase, again.Generation, gen+1)
	}
}

// Custom resources take RFC 7386 merge patches: lists are replaced whole,
// maps are merged key by key, null deletes.
func testMergePatchSemantics(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	c := env.Client
	w := newWidget("mergepatch", "w")
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Status.Items = []string{"a", "b", "c"}
	w.Status.Counters = map[string]int64{"x": 1, "y": 2}
	if err := c.Status().Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	patch := client.RawPatch("application/merge-patch+json",
		[]byte(`{"status":{"items":["z"],"counters":{"y":null,"w":3}}}`))
	if err := c.Status().Patch(ctx, w.DeepCopy(), patch); err != nil {
		t.Fatal(err)
	}
	got := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Status.Items, []string{"z"}) {
		t.Errorf("items = %v, want [z]", got.Status.Items)
	}
	if want := map[string]int64{"x": 1, "w": 3}; !reflect.DeepEqual(got.Status.Counters, want) {
		t.Errorf("counters = %v, want %v", got.Status.Counters, want)
	}
}

func testClusterScoped(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	c := env.Client
	g := &testv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "g"}}
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	base := g.DeepCopy()
	g.Status.Ready = true
	g.Status.Message = "ok"
	if err := c.Status().Patch(ctx, g, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		t.Fatal(err)
	}
	list := &testv1.GadgetList{}
	if err := c.List(ctx, list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Namespace != "" || !list.Items[0].Status.Ready || list.Items[0].Status.Message != "ok" {
		t.Fatalf("gadgets = %+v", list.Items)
	}
	namespaced, err := apiutil.IsObjectNamespaced(g, env.Scheme, env.Mapper)
	if err != nil || namespaced {
		t.Fatalf("IsObjectNamespaced(Gadget) = %v, %v", namespaced, err)
	}
}

func testMapper(t *testing.T, env *testenv.Env) {
	for _, tt := range []struct {
		kind, resource string
		scope          meta.RESTScopeName
	}{
		{"Widget", "widgets", meta.RESTScopeNameNamespace},
		{"Gadget", "gadgets", meta.RESTScopeNameRoot},
		{"Gizmo", "gizmos", meta.RESTScopeNameNamespace},
	} {
		m, err := env.Mapper.RESTMapping(testv1.GroupVersion.WithKind(tt.kind).GroupKind())
		if err != nil {
			t.Fatal(err)
		}
		if m.Resource != testv1.GroupVersion.WithResource(tt.resource) || m.Scope.Name() != tt.scope {
			t.Errorf("%s maps to %v (%s)", tt.kind, m.Resource, m.Scope.Name())
		}
		kind, err := env.Mapper.KindFor(testv1.GroupVersion.WithResource(tt.resource))
		if err != nil || kind != testv1.GroupVersion.WithKind(tt.kind) {
			t.Errorf("KindFor(%s) = %v, %v", tt.resource, kind, err)
		}
	}
	// The CRD kind itself is mapped too.
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := env.Client.Get(ctxFor(t), client.ObjectKey{Name: "widgets.testing.statuspatch.dev"}, crd); err != nil {
		t.Fatal(err)
	}
	if len(env.CRDs) != 3 {
		t.Errorf("env.CRDs has %d entries, want 3", len(env.CRDs))
	}
}

// A manager built by NewManager runs informers on the server: events for
// creates and status updates reach a handler.
func testManagerWatch(t *testing.T, env *testenv.Env) {
	mgr, err := env.NewManager(manager.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if mgr.GetRESTMapper() != env.Mapper {
		t.Error("manager does not use env.Mapper")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("manager: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("manager did not stop")
		}
	})

	waitCtx := ctxFor(t)
	informer, err := mgr.GetCache().GetInformer(waitCtx, &testv1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan string, 100)
	note := func(verb string, obj any) {
		if w, ok := obj.(*testv1.Widget); ok && w.Namespace == "watch" {
			events <- fmt.Sprintf("%s %s %s", verb, w.Name, w.Status.Phase)
		}
	}
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { note("add", obj) },
		UpdateFunc: func(_, obj any) { note("update", obj) },
		DeleteFunc: func(obj any) { note("delete", obj) },
	}); err != nil {
		t.Fatal(err)
	}
	if !mgr.GetCache().WaitForCacheSync(waitCtx) {
		t.Fatal("cache did not sync")
	}

	c := env.Client
	w := newWidget("watch", "w")
	if err := c.Create(waitCtx, w); err != nil {
		t.Fatal(err)
	}
	expect(t, events, "add w ")
	w.Status.Phase = "Watched"
	if err := c.Status().Update(waitCtx, w); err != nil {
		t.Fatal(err)
	}
	expect(t, events, "update w Watched")
	if err := c.Delete(waitCtx, w); err != nil {
		t.Fatal(err)
	}
	expect(t, events, "delete w Watched")
}

func expect(t *testing.T, events <-chan string, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case got := <-events:
			if got == want {
				return
			}
			t.Logf("event %q (waiting for %q)", got, want)
		case <-timeout:
			t.Fatalf("no %q event within 20s", want)
		}
	}
}
