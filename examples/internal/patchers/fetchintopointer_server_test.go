package patchers_test

import (
	"testing"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// Issue 80's pointer form of a re-read, on a real API server: ro :=
// &Rollout{}, read, written, read again, then a write of a function
// literal (a deferred one) through the patcher of the first read. The
// form -fix made before 2c646ca, a patcher of the re-read's own and ro =
// p2.Object(), leaves the literal's patcher over the object ro no longer
// points to: its Flush answers nil and the server records nothing (the
// resourceVersion stays). The form -fix makes now, FetchInto of the
// object ro points to assigned to the one patcher, stores the literal's
// write.
func TestFetchIntoPointerReReadKeepsALiteralsWrite(t *testing.T) {
	env, key := rolloutEnv(t)
	for _, into := range []bool{false, true} {
		ro := &demov1.Rollout{}
		if err := env.Client.Get(ctx, key, ro); err != nil {
			t.Fatal(err)
		}
		p := patchers.NewRolloutStatusPatcher(env.Client, ro)
		ro.Status.Phase = demov1.RolloutProgressing
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		last := p // the patcher the write after the re-read flushes
		if into {
			fetched, err := patchers.FetchRolloutStatusPatcherInto(ctx, env.Client, key, ro)
			if err != nil {
				t.Fatal(err)
			}
			p, last = fetched, fetched
		} else {
			p2, err := patchers.FetchRolloutStatusPatcher(ctx, env.Client, key)
			if err != nil {
				t.Fatal(err)
			}
			ro, last = p2.Object(), p2
		}
		ro.Status.ObservedGeneration = ro.Generation
		if err := last.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		before := getRollout(t, env, key.Name).ResourceVersion
		steps := ro.Status.CompletedSteps + 1
		ro.Status.CompletedSteps = steps // the literal's write
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("into=%v: the literal's Flush: %v", into, err)
		}
		got := getRollout(t, env, key.Name)
		stored := got.ResourceVersion != before && got.Status.CompletedSteps == steps
		if stored != into {
			t.Errorf("into=%v: the literal's write stored: %v (resourceVersion %s -> %s, completedSteps %d, want %d)",
				into, stored, before, got.ResourceVersion, got.Status.CompletedSteps, steps)
		}
	}
}
