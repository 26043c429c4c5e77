package patcherit_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 71, cases 3 and 4: the server keeps one managedFields entry per
// (manager, operation, subresource, apiVersion) of an Update. A writer
// that wrote through two served versions has two entries, and pairing an
// entry of one version with the other's reads as a stamp.

// twoServedVersions adds v2, a copy of v1, served, not stored
// (conversion None): the same objects through two apiVersions.
func twoServedVersions(crd *apiextensionsv1.CustomResourceDefinition) {
	v2 := *crd.Spec.Versions[0].DeepCopy()
	v2.Name, v2.Storage = "v2", false
	crd.Spec.Versions = append(crd.Spec.Versions, v2)
}

// statusPatchV2 writes body to the status through v2, as owner.
func statusPatchV2(t *testing.T, c client.Client, key client.ObjectKey, owner, body string) {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("testing.statuspatch.dev/v2")
	u.SetKind("Widget")
	u.SetName(key.Name)
	u.SetNamespace(key.Namespace)
	if err := c.Status().Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(body)), client.FieldOwner(owner)); err != nil {
		t.Fatalf("setup: the write through v2: %v", err)
	}
}

// writeV1 is owner's status write through v1 (the patcher's type).
func writeV1(t *testing.T, c client.Client, key client.ObjectKey, owner string, mutate func(w *v1.Widget)) {
	t.Helper()
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(owner))
	if err != nil {
		t.Fatal(err)
	}
	mutate(p.Object())
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

func setPhase(phase string) func(w *v1.Widget) { return func(w *v1.Widget) { w.Status.Phase = phase } }

// entryTime is the time of owner's Update entry of the status through
// apiVersion (zero: none).
func entryTime(w *v1.Widget, owner, apiVersion string) time.Time {
	for _, m := range w.ManagedFields {
		if m.Manager == owner && m.Subresource == "status" && m.APIVersion == apiVersion && m.Time != nil {
			return m.Time.Time
		}
	}
	return time.Time{}
}

const (
	apiV1 = "testing.statuspatch.dev/v1"
	apiV2 = "testing.statuspatch.dev/v2"
)

// Case 3a: our field owner wrote through v2, then through v1 a second
// later. Our write (v1) is stored and its answer lost, no other writer.
// Paired with the older v2 entry, our v1 entry looked unstamped while the
// base held a later second (its own): a Conflict, and Retry wrote "mine"
// twice. The v1 entry was stamped: nil is wanted.
func TestIssue71OurTwoVersionsStoredIsLanded(t *testing.T) {
	e := widgetServer(t, "the two-served-version", twoServedVersions)
	for _, lost := range lostAnswers {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, retryName(retry)), func(t *testing.T) {
				key := newWidget(t, e.Client)
				statusPatchV2(t, e.Client, key, "versioned-controller", `{"status":{"phase":"Migrating"}}`)
				untilNextSecond()
				writeV1(t, e.Client, key, "versioned-controller", setPhase("Running"))
				untilNextSecond()
				ft := &faultyTransport{plan: []plannedFault{lost.fault}}
				if lost.overwrite {
					other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
					if err != nil {
						t.Fatal(err)
					}
					ft.foreign = foreignAppend(other, key, "theirs")
				}
				c := faultyClient(t, e, ft)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("versioned-controller"))...)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				got := get(t, e.Client, key)
				if n := countOf(got.Status.Items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
				}
				wantStored(t, err, runs)
			})
		}
	}
}

// Case 3b: two increments from one base, in one second. Our field owner
// has entries through v1 and v2 (other fields, one second); the other
// controller's increment is stored in the second of its previous write
// (its entry unchanged); ours is reset before the server. Paired across
// versions our entry looked stamped, and the version after the base is
// exactly the base plus ours: nil, one increment on the server for two
// reported (silent loss). A Conflict (Retry counts again) or
// ErrWriteOutcomeUnknown are right.
func TestIssue71OurTwoVersionsAreNoStamp(t *testing.T) {
	e := widgetServer(t, "the two-served-version", twoServedVersions)
	for _, retry := range []bool{false, true} {
		t.Run(retryName(retry), func(t *testing.T) {
			for attempt := 1; ; attempt++ {
				if oneSecondTwoIncrements(t, e, retry) {
					return
				}
				if attempt == 5 {
					t.Fatal("setup: the writes never fell in one second")
				}
				t.Logf("setup: the writes spanned a second; again")
			}
		})
	}
}

// oneSecondTwoIncrements is one attempt of case 3b; false when the setup's
// writes did not fall in one second.
func oneSecondTwoIncrements(t *testing.T, e *testenv.Env, retry bool) bool {
	key := newWidget(t, e.Client)
	other := envClient(t, e)
	untilNextSecond()
	writeV1(t, other, key, "restart-counter", bumpRestarts)
	statusPatchV2(t, e.Client, key, "versioned-controller", `{"status":{"phase":"Migrating"}}`)
	writeV1(t, e.Client, key, "versioned-controller", func(w *v1.Widget) { w.Status.ObservedGeneration = 1 })
	ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
	ft.foreign = func() error { return foreignBump(other, key) }
	c := faultyClient(t, e, ft)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("versioned-controller"))...)
	if err != nil {
		t.Fatal(err)
	}
	base := p.Object().DeepCopy()
	runs := 0
	mutate := func(w *v1.Widget) error { runs++; bumpRestarts(w); return nil }
	if retry {
		err = p.Retry(ctx, mutate)
	} else {
		_ = mutate(p.Object())
		err = p.Flush(ctx)
	}
	got := get(t, e.Client, key)
	sec := entryTime(base, "restart-counter", apiV1)
	if !entryTime(got, "restart-counter", apiV1).Equal(sec) || !entryTime(base, "versioned-controller", apiV1).Equal(sec) ||
		!entryTime(base, "versioned-controller", apiV2).Equal(sec) {
		return false
	}
	want := base.Status.Counters[restarts] + 2 // theirs and ours
	if err == nil && got.Status.Counters[restarts] != want {
		t.Fatalf("= nil after %d runs: restarts %d, want %d: an increment reported stored is not on the server",
			runs, got.Status.Counters[restarts], want)
	}
	if err != nil && !apierrors.IsConflict(err) && !isUnknown(err) {
		t.Fatalf("= %v; want a Conflict or ErrWriteOutcomeUnknown", err)
	}
	t.Logf("= %v after %d runs, restarts %d", err, runs, got.Status.Counters[restarts])
	return true
}

// foreignBump is the other controller's increment from the current
// version, under the lock, from another process (not through a patcher,
// whose answers this process would know).
func foreignBump(c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	orig := w.DeepCopy()
	bumpRestarts(w)
	return c.Status().Patch(ctx, w, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{}), client.FieldOwner("restart-counter"))
}

// envClient is a client of its own on e.
func envClient(t *testing.T, e *testenv.Env) client.Client {
	t.Helper()
	c, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Case 4a: another controller wrote through v1 and, a second later,
// through v2. Our write is stored, its answer lost, no other writer: the
// other's two entries paired across versions read as its stamp, and a
// stored write became ErrWriteOutcomeUnknown. Our entry alone was stamped:
// nil is wanted.
func TestIssue71AnothersTwoVersionsAreNoStamp(t *testing.T) {
	e := widgetServer(t, "the two-served-version", twoServedVersions)
	for _, lost := range lostAnswers {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, retryName(retry)), func(t *testing.T) {
				key := newWidget(t, e.Client)
				writeV1(t, e.Client, key, "migrating-controller", setPhase("Running"))
				untilNextSecond()
				statusPatchV2(t, e.Client, key, "migrating-controller", `{"status":{"observedGeneration":1}}`)
				ft := &faultyTransport{plan: []plannedFault{lost.fault}}
				if lost.overwrite {
					ft.foreign = foreignAppend(envClient(t, e), key, "theirs")
				}
				c := faultyClient(t, e, ft)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("our-controller"))...)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				got := get(t, e.Client, key)
				if n := countOf(got.Status.Items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
				}
				wantStored(t, err, runs)
			})
		}
	}
}

// Case 4b: as 4a, but our previous write fell in the second of this one:
// our entry shows no change, and the other's two entries read as its
// stamp: a Conflict, and Retry wrote "mine" twice. Ours alone holds the
// newest second: nil or ErrWriteOutcomeUnknown, never a Conflict.
func TestIssue71AnothersTwoVersionsAreNoConflict(t *testing.T) {
	e := widgetServer(t, "the two-served-version", twoServedVersions)
	for _, retry := range []bool{false, true} {
		t.Run(retryName(retry), func(t *testing.T) {
			for attempt := 1; ; attempt++ {
				key := newWidget(t, e.Client)
				writeV1(t, e.Client, key, "migrating-controller", setPhase("Running"))
				untilNextSecond()
				statusPatchV2(t, e.Client, key, "migrating-controller", `{"status":{"observedGeneration":1}}`)
				untilNextSecond()
				writeV1(t, e.Client, key, "our-controller", func(w *v1.Widget) { w.Status.Items = []string{"first"} })
				ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
				c := faultyClient(t, e, ft)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("our-controller"))...)
				if err != nil {
					t.Fatal(err)
				}
				sec := entryTime(p.Object(), "our-controller", apiV1)
				runs, err := decideMine(p, retry)
				got := get(t, e.Client, key)
				if n := countOf(got.Status.Items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
				}
				if !entryTime(got, "our-controller", apiV1).Equal(sec) && runs == 1 {
					if attempt == 5 {
						t.Fatal("setup: our two writes never fell in one second")
					}
					t.Logf("setup: our two writes spanned a second; again")
					continue
				}
				wantStoredNotConflict(t, err, runs)
				return
			}
		})
	}
}

func isUnknown(err error) bool { return errors.Is(err, patcher.ErrWriteOutcomeUnknown) }
