package main

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

var (
	envOnce sync.Once
	shared  *testenv.Env
	stop    func()
)

// env returns one API server shared by the package's tests.
func env(t *testing.T) *testenv.Env {
	t.Helper()
	envOnce.Do(func() {
		s := runtime.NewScheme()
		if err := v1.AddToScheme(s); err != nil {
			t.Fatal(err)
		}
		var err error
		shared, stop, err = testenv.StartServer(context.Background(), testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(s))
		if err != nil {
			t.Fatalf("start API server: %v", err)
		}
	})
	if shared == nil {
		t.Fatal("API server failed to start in an earlier test")
	}
	return shared
}

func TestMain(m *testing.M) {
	code := m.Run()
	if stop != nil {
		stop()
	}
	os.Exit(code)
}

func newWidget(t *testing.T, e *testenv.Env, name string) client.ObjectKey {
	t.Helper()
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	if err := e.Client.Create(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	return client.ObjectKeyFromObject(w)
}

func setStatus(t *testing.T, c client.Client, key client.ObjectKey, mutate func(*v1.Widget)) string {
	t.Helper()
	w := &v1.Widget{}
	if err := c.Get(context.Background(), key, w); err != nil {
		t.Fatal(err)
	}
	base := w.DeepCopy()
	mutate(w)
	if err := c.Status().Patch(context.Background(), w, client.MergeFrom(base)); err != nil {
		t.Fatal(err)
	}
	return w.ResourceVersion
}

// A lagging writer's cache still serves the old object right after a
// write, while a writer without lag gets the write: the lag transport
// really holds watch events back. (The lag, set once the cache has synced,
// is an hour, so that no read can be late enough to see the write.)
func TestLagTransportDelaysWatchEvents(t *testing.T) {
	e := env(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := newWidget(t, e, "lag-transport")
	lagging, err := newCachedWriters(ctx, e, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := lagging[0].waitCached(ctx, key); err != nil {
		t.Fatal(err)
	}
	lagging[0].transport.setLag(time.Hour)
	prompt, err := newCachedWriters(ctx, e, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	old := &v1.Widget{}
	if err := lagging[0].client.Get(ctx, key, old); err != nil {
		t.Fatal(err)
	}
	written := setStatus(t, e.Client, key, func(w *v1.Widget) { w.Status.Phase = "Written" })
	for {
		w := &v1.Widget{}
		if err := prompt[0].client.Get(ctx, key, w); err != nil {
			t.Fatal(err)
		}
		if w.ResourceVersion == written {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(2 * time.Millisecond): // poll the lag-free cache: no assertion on time
		}
	}
	cached := &v1.Widget{}
	if err := lagging[0].client.Get(ctx, key, cached); err != nil || cached.ResourceVersion != old.ResourceVersion {
		t.Fatalf("lagging cache after the write: resourceVersion %q, err %v; want the old %s: watch events are not delayed", cached.ResourceVersion, err, old.ResourceVersion)
	}
	// The API reader is not delayed.
	w := &v1.Widget{}
	if err := lagging[0].apiReader.Get(ctx, key, w); err != nil || w.ResourceVersion != written {
		t.Fatalf("API reader: resourceVersion %q, err %v; want %s", w.ResourceVersion, err, written)
	}
}

// staleOnce reads the object as it was at the snapshot on its first Get,
// as a cache that had not yet seen another writer's write would, and
// reads through to the server after that.
type staleOnce struct {
	client.Client
	mu    sync.Mutex
	stale *v1.Widget
}

func (s *staleOnce) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	s.mu.Lock()
	stale := s.stale
	s.stale = nil
	s.mu.Unlock()
	if w, ok := obj.(*v1.Widget); ok && stale != nil {
		stale.DeepCopyInto(w)
		return nil
	}
	return s.Client.Get(ctx, key, obj, opts...)
}

// The capi-style helper's conditions patch, 409'd because its read was
// stale, re-reads, keeps the other writer's condition and sets its own;
// the rest of its status goes without the lock, so another writer's item
// appended since the snapshot is lost. A condition of a type the helper
// does not own, changed by another writer since the snapshot, fails the
// patch.
func TestCAPIHelperMergesConditionsBlindOnTheRest(t *testing.T) {
	e := env(t)
	ctx := context.Background()
	key := newWidget(t, e, "capi-helper")
	snapshot := &v1.Widget{}
	if err := e.Client.Get(ctx, key, snapshot); err != nil {
		t.Fatal(err)
	}
	setStatus(t, e.Client, key, func(w *v1.Widget) {
		w.Status.Items = append(w.Status.Items, "other")
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Other", Status: metav1.ConditionTrue, Reason: "Set"})
	})

	lt := &lagTransport{}
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(lt.wrap)
	direct, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	c := &staleOnce{Client: direct, stale: snapshot.DeepCopy()}
	w := snapshot.DeepCopy()
	h := newCAPIHelper(c, w, "Mine")
	w.Status.Items = append(w.Status.Items, "mine")
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Mine", Status: metav1.ConditionTrue, Reason: "Set"})
	if err := h.Patch(ctx, w); err != nil {
		t.Fatal(err)
	}
	if got := lt.conflicts.Load(); got != 1 {
		t.Errorf("409s: %d, want 1 (the stale first read)", got)
	}
	final := &v1.Widget{}
	if err := e.Client.Get(ctx, key, final); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"Other", "Mine"} {
		if meta.FindStatusCondition(final.Status.Conditions, typ) == nil {
			t.Errorf("condition %s missing: %+v", typ, final.Status.Conditions)
		}
	}
	if len(final.Status.Items) != 1 || final.Status.Items[0] != "mine" {
		t.Errorf("items %q, want [mine]: the rest of the status is patched without the lock, replacing the list", final.Status.Items)
	}

	// Another writer changes "Other"; a helper with a snapshot from before,
	// changing "Other" too without owning it, fails.
	before := final.DeepCopy()
	setStatus(t, e.Client, key, func(w *v1.Widget) {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Other", Status: metav1.ConditionFalse, Reason: "Changed"})
	})
	w = before.DeepCopy()
	h = newCAPIHelper(direct, w)
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Other", Status: metav1.ConditionUnknown, Reason: "Mine"})
	if err := h.Patch(ctx, w); err == nil {
		t.Error("a change to a condition another writer changed since the snapshot was patched; want an error")
	}
}

// lost counts what the final object misses of the converged updates.
func TestWorkloadsCountLostUpdates(t *testing.T) {
	final := &v1.Widget{}
	itemsWorkload.mutate(final, 0, 0)
	itemsWorkload.mutate(final, 1, 1)
	converged := [][]bool{{true, true}, {false, true}}
	if got := itemsWorkload.lost(final, []int{1, 1}, converged); got != 1 {
		t.Errorf("items lost = %d, want 1 (w0-1)", got)
	}
	final = &v1.Widget{}
	conditionsWorkload.mutate(final, 0, 1)
	conditionsWorkload.mutate(final, 1, 0)
	if got := conditionsWorkload.lost(final, []int{1, 1, -1}, nil); got != 1 {
		t.Errorf("conditions lost = %d, want 1 (writer 1's update 1)", got)
	}
	// Writer 0's step 1 is there although its last converged update was
	// step 0 (step 1 landed, its writer saw an error): not a loss.
	if got := conditionsWorkload.lost(final, []int{0, 0}, nil); got != 0 {
		t.Errorf("conditions lost = %d, want 0", got)
	}
}
