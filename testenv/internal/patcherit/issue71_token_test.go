package patcherit_test

import (
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 71, the write token: with patcher.WithWriteToken (the generated
// patcher's +statuspatch:writeToken) every write carries a fresh token in
// status.writeToken, and a lost answer is settled by it alone. Each trap
// of issue 71 that managedFields leave Unknown (or worse) is exact with a
// watcher: a stored write is nil, one not stored a Conflict (Retry makes
// the decision again, once more).

// tokenOptions are historyOptions with the token and owner (none: "").
func tokenOptions(c client.WithWatch, owner string) []patcher.Option {
	opts := append(historyOptions(c), withToken)
	if owner != "" {
		opts = append(opts, patcher.WithFieldOwner(owner))
	}
	return opts
}

// wantExact checks an outcome with the token: nil (stored) or, for Flush
// only, a Conflict (not stored); never ErrWriteOutcomeUnknown.
func wantExact(t *testing.T, err error, stored, retry bool, runs int) {
	t.Helper()
	switch {
	case isUnknown(err):
		t.Fatalf("= %v after %d runs: Unknown with the token and a watcher", err, runs)
	case stored && err != nil:
		t.Fatalf("= %v after %d runs; want nil (stored)", err, runs)
	case stored && runs != 1:
		t.Fatalf("= nil after %d runs; the stored decision was made again", runs)
	case !stored && !retry && !apierrors.IsConflict(err):
		t.Fatalf("= %v; want a Conflict (not stored)", err)
	case !stored && retry && (err != nil || runs != 2):
		t.Fatalf("= %v after %d runs; want nil after deciding again once", err, runs)
	}
}

// Case 1 with the token: two controllers take job-1 from one base; the
// other's removal is stored, ours reset before the server. Without the
// token: ErrWriteOutcomeUnknown (a removal stamps nothing). With it: a
// Conflict, and Retry takes job-2.
func TestIssue71TokenRemovalFromOneBase(t *testing.T) {
	e := env(t)
	for _, rm := range removals {
		for _, mode := range issue71Modes {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%v/%s", rm.name, mode, retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					fillQueue(t, e.Client, key, rm, "queue-controller", mode)
					other := ownClient(t)
					ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
					ft.foreign = func() error { _, err := lockedTake(other, key, rm); return err }
					c := faultyClient(t, e, ft)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(tokenOptions(c, "queue-controller"), patcher.WithWriteMode(mode))...)
					if err != nil {
						t.Fatal(err)
					}
					taken, runs, err := takeOne(p, rm, retry)
					got := rm.keys(get(t, e.Client, key))
					wantExact(t, err, false, retry, runs)
					if retry && (taken != "job-2" || !slices.Equal(got, []string{"job-3"})) {
						t.Fatalf("Retry took %s; server holds %v, want [job-3]", taken, got)
					}
				})
			}
		}
	}
}

// Case 2 with the token: the removal is stored, its answer lost, after
// another controller wrote later than our last write: nil, decided once.
func TestIssue71TokenStoredRemoval(t *testing.T) {
	e := env(t)
	for _, rm := range removals {
		for _, mode := range issue71Modes {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%v/%s", rm.name, mode, retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					fillQueue(t, e.Client, key, rm, "queue-controller", mode)
					writeV1(t, ownClient(t), key, "phase-controller", setPhase("Busy"))
					ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
					c := faultyClient(t, e, ft)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(tokenOptions(c, "queue-controller"), patcher.WithWriteMode(mode))...)
					if err != nil {
						t.Fatal(err)
					}
					_, runs, err := takeOne(p, rm, retry)
					if got := rm.keys(get(t, e.Client, key)); !slices.Equal(got, []string{"job-2", "job-3"}) {
						t.Fatalf("= %v after %d runs: server holds %v; want [job-2 job-3]", err, runs, got)
					}
					wantExact(t, err, true, retry, runs)
				})
			}
		}
	}
}

// Cases 3 and 4 with the token: entries under two apiVersions, ours and
// another's, stored and not.
func TestIssue71TokenTwoVersions(t *testing.T) {
	e := widgetServer(t, "the two-served-version", twoServedVersions)
	for _, retry := range []bool{false, true} {
		t.Run("ours stored/"+retryName(retry), func(t *testing.T) {
			key := newWidget(t, e.Client)
			statusPatchV2(t, e.Client, key, "versioned-controller", `{"status":{"phase":"Migrating"}}`)
			writeV1(t, e.Client, key, "versioned-controller", setPhase("Running"))
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwrittenRetryAfter, after: true}}}
			ft.foreign = foreignAppend(envClient(t, e), key, "theirs")
			tokenDecideMine(t, e, key, ft, "versioned-controller", retry, true)
		})
		t.Run("another's stored/"+retryName(retry), func(t *testing.T) {
			key := newWidget(t, e.Client)
			writeV1(t, e.Client, key, "migrating-controller", setPhase("Running"))
			statusPatchV2(t, e.Client, key, "migrating-controller", `{"status":{"observedGeneration":1}}`)
			writeV1(t, e.Client, key, "our-controller", func(w *v1.Widget) { w.Status.Items = []string{"first"} })
			ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
			tokenDecideMine(t, e, key, ft, "our-controller", retry, true)
		})
		t.Run("two increments, ours not stored/"+retryName(retry), func(t *testing.T) {
			key := newWidget(t, e.Client)
			other := envClient(t, e)
			writeV1(t, other, key, "restart-counter", bumpRestarts)
			statusPatchV2(t, e.Client, key, "versioned-controller", `{"status":{"phase":"Migrating"}}`)
			writeV1(t, e.Client, key, "versioned-controller", func(w *v1.Widget) { w.Status.ObservedGeneration = 1 })
			ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
			ft.foreign = func() error { return foreignBump(other, key) }
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, "versioned-controller")...)
			if err != nil {
				t.Fatal(err)
			}
			before := p.Object().Status.Counters[restarts]
			runs, err := decide(p, bumpRestarts, retry)
			wantExact(t, err, false, retry, runs)
			if n := get(t, e.Client, key).Status.Counters[restarts]; retry && n != before+2 {
				t.Fatalf("restarts %d, want %d (theirs and ours)", n, before+2)
			}
		})
	}
}

// Case 5 with the token: no field owner, the probe's dry run on an object
// at the ten-manager cap, the write stored and its answer lost: nil (the
// token needs no manager name).
func TestIssue71TokenAtTheManagerCap(t *testing.T) {
	e := env(t)
	for _, lost := range lostAnswers {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, retryName(retry)), func(t *testing.T) {
				key := busyWidget(t, e.Client)
				ft := &faultyTransport{plan: []plannedFault{lost.fault}}
				if lost.overwrite {
					ft.foreign = foreignAppend(envClient(t, e), key, "theirs")
				}
				tokenDecideMine(t, e, key, ft, "", retry, true)
			})
		}
	}
}

// Same-second writes, one manager name: another process of this
// controller (the same field owner) makes the same decision from the same
// base in the second of ours; its write is stored, ours reset before the
// server. The first version after the base is exactly the base plus ours,
// stamped by our manager name. With the token: a Conflict, Retry counts
// again.
func TestIssue71TokenSameSecondSharedManager(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(retryName(retry), func(t *testing.T) {
			key := newWidget(t, e.Client)
			other := envClient(t, e)
			writeV1(t, e.Client, key, "restart-counter", bumpRestarts)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
			ft.foreign = func() error { return foreignBump(other, key) } // as "restart-counter"
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, "restart-counter")...)
			if err != nil {
				t.Fatal(err)
			}
			before := p.Object().Status.Counters[restarts]
			runs, err := decide(p, bumpRestarts, retry)
			wantExact(t, err, false, retry, runs)
			if n := get(t, e.Client, key).Status.Counters[restarts]; retry && n != before+2 {
				t.Fatalf("restarts %d, want %d (theirs and ours)", n, before+2)
			}
		})
	}
}

// tokenDecideMine appends "mine" with the token through ft, owner ("": none),
// and checks the outcome exact: stored once, nil.
func tokenDecideMine(t *testing.T, e *testenv.Env, key client.ObjectKey, ft *faultyTransport, owner string, retry, stored bool) {
	t.Helper()
	c := faultyClient(t, e, ft)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, owner)...)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := decideMine(p, retry)
	got := get(t, e.Client, key)
	if n := countOf(got.Status.Items, "mine"); stored && n != 1 {
		t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
	}
	wantExact(t, err, stored, retry, runs)
}

// decide makes the decision mutate through Retry, or a change and Flush.
func decide(p *patcher.Patcher[*v1.Widget], mutate func(*v1.Widget), retry bool) (int, error) {
	runs := 0
	m := func(w *v1.Widget) error { runs++; mutate(w); return nil }
	if retry {
		return runs, p.Retry(ctx, m)
	}
	_ = m(p.Object())
	return runs, p.Flush(ctx)
}
