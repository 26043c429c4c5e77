package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
)

// barrierUpdate is coPatcher's update, except that the first update of
// each of the two writers of an object waits, after its read, until the
// other has read too: both decide from the same version, so under the lock
// one of them must get a 409.
func barrierUpdate(opts ...patcher.Option) coUpdate {
	var mu sync.Mutex
	barriers := map[client.ObjectKey]*sync.WaitGroup{}
	return coPatcherWith(func(key client.ObjectKey, i, attempt int) {
		if i != 1 || attempt != 1 {
			return
		}
		mu.Lock()
		b := barriers[key]
		if b == nil {
			b = &sync.WaitGroup{}
			b.Add(2)
			barriers[key] = b
		}
		mu.Unlock()
		b.Done()
		b.Wait()
	}, opts...)
}

// The co-writers run's own checks: every variant of the patcher ends with
// each controller's last values; when both writers of an object decide
// from the same version, the lock (merge or apply) makes one of them
// conflict and apply without the lock does not.
func TestCoWritersVariants(t *testing.T) {
	ctx := context.Background()
	e := env(t)
	for _, v := range []struct {
		name      string
		opts      []patcher.Option
		conflicts bool
	}{
		{"merge", nil, true},
		{"apply", []patcher.Option{patcher.WithWriteMode(patcher.WriteApply)}, true},
		{"nolock", []patcher.Option{patcher.WithWriteMode(patcher.WriteApplyWithoutLock)}, false},
	} {
		r, err := coContend(ctx, e, "t"+v.name, 2, 5, barrierUpdate(v.opts...))
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if r.lost != 0 || r.failed != 0 {
			t.Fatalf("%s: %d values lost, %d updates failed; want none", v.name, r.lost, r.failed)
		}
		if v.conflicts && r.conflicts < 2 {
			t.Errorf("%s: %d conflicts; want at least one per object (both writers read the same version first)", v.name, r.conflicts)
		}
		if !v.conflicts && r.conflicts != 0 {
			t.Errorf("%s: %d conflicts on disjoint fields; want 0", v.name, r.conflicts)
		}
	}
}

// A controller's values checked at the end: a missing condition or field
// counts as lost.
func TestCoContendCountsLostValues(t *testing.T) {
	ctx := context.Background()
	e := env(t)
	// An update that writes nothing: every final value is missing.
	none := func(context.Context, client.Client, client.ObjectKey, coOwner, int) (int, error) { return 1, nil }
	r, err := coContend(ctx, e, "tnone", 1, 2, none)
	if err != nil {
		t.Fatal(err)
	}
	if r.lost != 4 || r.conflicts != 0 {
		t.Fatalf("lost %d, conflicts %d; want 4 lost (2 owners x field and condition), 0 conflicts", r.lost, r.conflicts)
	}
}

// The documented command's route (`go run ./internal/bench -cowriters N`):
// run starts its own server and runs only the co-writers comparison, every
// variant, and returns no error when no patcher variant lost or failed an
// update.
func TestCoWritersCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a second API server")
	}
	if err := run("2", 2, 0, 1, 1, map[string]bool{}, nil, time.Minute); err != nil {
		t.Fatalf("run -cowriters 1 -updates 2: %v", err)
	}
}
