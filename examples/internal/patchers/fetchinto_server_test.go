package patchers_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// FetchRolloutStatusPatcherInto on a real API server, in the form -fix
// gives kubebuilder's tutorial (issue 80): a local value read into,
// written, read again into the same value with the one patcher assigned
// again, written. The patcher is over the value; the re-read carries what
// another writer stored in between, and the second write stores both.
func TestFetchIntoReReadOnServer(t *testing.T) {
	env, key := rolloutEnv(t)
	var ro demov1.Rollout
	p, err := patchers.FetchRolloutStatusPatcherInto(ctx, env.Client, key, &ro)
	if err != nil {
		t.Fatal(err)
	}
	if p.Object() != &ro {
		t.Fatalf("the patcher's object is %p, not the value read into (%p)", p.Object(), &ro)
	}
	ro.Status.Phase = demov1.RolloutProgressing
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if ro.Status.Phase != demov1.RolloutProgressing || ro.ResourceVersion == "" {
		t.Fatalf("the value after Flush: %+v at %q", ro.Status, ro.ResourceVersion)
	}

	var other demov1.Rollout // another writer, between the two writes
	if err := env.Client.Get(ctx, key, &other); err != nil {
		t.Fatal(err)
	}
	other.Status.CompletedSteps = 2
	if err := env.Client.Status().Update(ctx, &other); err != nil {
		t.Fatal(err)
	}

	p, err = patchers.FetchRolloutStatusPatcherInto(ctx, env.Client, key, &ro)
	if err != nil {
		t.Fatal(err)
	}
	if p.Object() != &ro || ro.ResourceVersion != other.ResourceVersion || ro.Status.CompletedSteps != 2 {
		t.Fatalf("the re-read is not in the value: object %p (want %p), resourceVersion %s (want %s), completedSteps %d (want 2)",
			p.Object(), &ro, ro.ResourceVersion, other.ResourceVersion, ro.Status.CompletedSteps)
	}
	ro.Status.ObservedGeneration = ro.Generation
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("the write after the re-read: %v", err)
	}
	var got demov1.Rollout
	if err := env.Client.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != demov1.RolloutProgressing || got.Status.CompletedSteps != 2 || got.Status.ObservedGeneration != got.Generation {
		t.Fatalf("stored status %+v: want both writes and the other writer's completedSteps", got.Status)
	}
}

// The conflict loop -fix gives a value used after it: FetchInto, then
// Retry, which on a conflict reads again in place: the value is the
// patcher's object all along, and after Retry it is what the server
// stored, with no copy back.
func TestFetchIntoRetryReadsInPlace(t *testing.T) {
	env, key := rolloutEnv(t)
	var ro demov1.Rollout
	p, err := patchers.FetchRolloutStatusPatcherInto(ctx, env.Client, key, &ro)
	if err != nil {
		t.Fatal(err)
	}
	var other demov1.Rollout // another writer, after the read: Retry's first write conflicts
	if err := env.Client.Get(ctx, key, &other); err != nil {
		t.Fatal(err)
	}
	other.Status.CompletedSteps = 2
	if err := env.Client.Status().Update(ctx, &other); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err = p.Retry(ctx, func(r *demov1.Rollout) error {
		calls++
		if r != &ro {
			t.Errorf("mutate %d was given %p, not the value %p", calls, r, &ro)
		}
		r.Status.Phase = demov1.RolloutProgressing
		return nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("Retry: %v after %d calls of mutate, want nil after 2 (a conflict, then the re-read)", err, calls)
	}
	got := getRollout(t, env, key.Name)
	if ro.ResourceVersion != got.ResourceVersion || ro.Status.CompletedSteps != 2 || got.Status.CompletedSteps != 2 || got.Status.Phase != demov1.RolloutProgressing {
		t.Fatalf("after Retry the value is %+v at %s; stored %+v at %s: want the stored object, both writes", ro.Status, ro.ResourceVersion, got.Status, got.ResourceVersion)
	}
}

// Fetch's check that its read is not from a cache behind this process's
// own write, through FetchInto: the re-read after the patcher's write is
// served the object from before it (a lagging cache). Without an API
// reader the patcher refuses to act (ErrStaleCache, nothing sent); with
// one, FetchInto reads the object again, into the caller's value.
func TestFetchIntoSeesAStaleRead(t *testing.T) {
	env, key := rolloutEnv(t)
	lag := &laggingReads{Client: env.Client}
	var ro demov1.Rollout
	p, err := patchers.FetchRolloutStatusPatcherInto(ctx, lag, key, &ro)
	if err != nil {
		t.Fatal(err)
	}
	before := ro.DeepCopy()
	ro.Status.Phase = demov1.RolloutProgressing
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	written := ro.ResourceVersion

	lag.serve(before) // the cache has not seen the write
	p, err = patchers.FetchRolloutStatusPatcherInto(ctx, lag, key, &ro)
	if err != nil {
		t.Fatal(err)
	}
	if ro.ResourceVersion != before.ResourceVersion {
		t.Fatalf("the lagging read returned resourceVersion %s, want %s", ro.ResourceVersion, before.ResourceVersion)
	}
	if err := p.Fresh(ctx); !errors.Is(err, patcher.ErrStaleCache) {
		t.Fatalf("Fresh: %v, want ErrStaleCache", err)
	}
	ro.Status.CompletedSteps = 9
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrStaleCache) {
		t.Fatalf("Flush of a stale read: %v, want ErrStaleCache", err)
	}
	if got := getRollout(t, env, key.Name); got.ResourceVersion != written || got.Status.CompletedSteps != 0 {
		t.Fatalf("a stale patcher wrote: resourceVersion %s (want %s), completedSteps %d", got.ResourceVersion, written, got.Status.CompletedSteps)
	}

	p, err = patchers.FetchRolloutStatusPatcherInto(ctx, lag, key, &ro, patcher.WithAPIReader(env.Client))
	if err != nil {
		t.Fatal(err)
	}
	if p.Object() != &ro || ro.ResourceVersion != written || ro.Status.Phase != demov1.RolloutProgressing {
		t.Fatalf("with an API reader: object %p (want %p), resourceVersion %s phase %q; want the own write %s", p.Object(), &ro, ro.ResourceVersion, ro.Status.Phase, written)
	}
	ro.Status.CompletedSteps = 1
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush from the fresh read: %v", err)
	}
	if lag.served.Load() != 2 {
		t.Fatalf("the lagging reader served %d stale reads, want 2", lag.served.Load())
	}
}

// laggingReads is a client whose Gets, once serve is called, return a
// copy of one old object: a cache that has not seen this process's write.
// Its writes go to the server.
type laggingReads struct {
	client.Client
	old    atomic.Pointer[demov1.Rollout]
	served atomic.Int32
}

func (l *laggingReads) serve(old *demov1.Rollout) { l.old.Store(old) }

func (l *laggingReads) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	old := l.old.Load()
	ro, ok := obj.(*demov1.Rollout)
	if old == nil || !ok || key != client.ObjectKeyFromObject(old) {
		return l.Client.Get(ctx, key, obj, opts...)
	}
	l.served.Add(1)
	*ro = *old.DeepCopy()
	return nil
}

// rolloutEnv starts an API server with the examples' CRDs and creates one
// Rollout.
func rolloutEnv(t *testing.T) (*testenv.Env, client.ObjectKey) {
	t.Helper()
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s))
	ro := &demov1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "tutorial"},
		Spec:       demov1.RolloutSpec{Version: "v1", Steps: 3},
	}
	if err := env.Client.Create(ctx, ro); err != nil {
		t.Fatal(err)
	}
	return env, client.ObjectKeyFromObject(ro)
}
