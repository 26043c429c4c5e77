package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 37, cases 1 and 2: "mine" only by exact evidence. After a 409 the
// first version after the base is this write's only when it is exactly
// the base plus this write (the whole status, every difference explained
// by the server's schema for the CRD). Another writer's version that
// shares a value with ours but lacks our item is not ours.

// historyRoutes are the ways a patcher reads the object's history after a
// 409: the read at base+1 (a plain client), lists at exact
// resourceVersions (a plain client whose read is later: a label is written
// after the other writer's status), the client's own watch
// (client.WithWatch), a configured watcher (WithWatcher).
var historyRoutes = []string{"plain client", "plain client, lists", "client.WithWatch", "WithWatcher"}

// routedPatcher fetches key through a client of route whose requests pass
// through h.
func routedPatcher(t *testing.T, route string, h *historyTrace, key client.ObjectKey, opts ...patcher.Option) *patcher.Patcher[*v1.Widget] {
	t.Helper()
	kind := map[string]string{"WithWatcher": "client.WithWatch", "plain client, lists": "plain client"}[route]
	if kind == "" {
		kind = route
	}
	c := tracedClient(t, kind, h)
	if route == "WithWatcher" {
		opts = append(opts, patcher.WithWatcher(c.(client.WithWatch)))
	}
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decideReadyAndMine is our decision: phase Ready and the item "mine".
func decideReadyAndMine(p *patcher.Patcher[*v1.Widget], retry bool) (int, error) {
	runs := 0
	mutate := func(w *v1.Widget) error {
		runs++
		w.Status.Phase = "Ready"
		w.Status.Items = append(w.Status.Items, "mine")
		return nil
	}
	if retry {
		return runs, p.Retry(ctx, mutate)
	}
	_ = mutate(p.Object())
	return runs, p.Flush(ctx)
}

// checkNotMine checks the verdicts on a write that was refused: Flush a
// Conflict (never nil), nothing of ours stored; Retry nil after two runs
// of mutate, "mine" stored once.
func checkNotMine(t *testing.T, retry bool, runs int, err error, key client.ObjectKey) {
	t.Helper()
	got := get(t, env(t).Client, key)
	switch {
	case !retry && (!apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || countOf(got.Status.Items, "mine") != 0):
		t.Fatalf("Flush = %v, stored %+v; want a Conflict, nothing of mine stored", err, got.Status)
	case retry && (err != nil || runs != 2 || countOf(got.Status.Items, "mine") != 1 || got.Status.Phase != "Ready"):
		t.Fatalf("Retry = %v after %d runs, stored %+v; want nil after 2 runs, mine stored once", err, runs, got.Status)
	}
}

// Case 1: ordinary contention, no fault. Two writers read a new object;
// the other writes phase=Ready (and, in one variant, an observedGeneration
// ours does not set); ours sets phase=Ready, appends "mine" and gets a
// 409. Before: the other's version was taken for ours (the missing item
// "pruned", every path widened to status on the empty base): Flush and
// Retry returned nil and "mine" was never stored.
func TestExactASharedValueIsNotMine(t *testing.T) {
	e := env(t)
	for _, who := range contenders {
		if who.mine != who.other {
			continue // distinct managers: case 2
		}
		for _, generation := range []bool{false, true} {
			for _, route := range historyRoutes {
				for _, retry := range []bool{false, true} {
					name := fmt.Sprintf("%s/observedGeneration %v/%s/%s", who.name, generation, route, map[bool]string{false: "Flush", true: "Retry"}[retry])
					t.Run(name, func(t *testing.T) {
						key := newWidget(t, e.Client)
						other, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, ownerOpts(who.other)...)
						if err != nil {
							t.Fatal(err)
						}
						h := &historyTrace{}
						p := routedPatcher(t, route, h, key, ownerOpts(who.mine)...)
						other.Object().Status.Phase = "Ready"
						if generation {
							other.Object().Status.ObservedGeneration = 1
						}
						if err := other.Flush(ctx); err != nil {
							t.Fatal(err)
						}
						if route == "plain client, lists" {
							if err := labelBy(ownClient(t), key, "later")(); err != nil {
								t.Fatal(err)
							}
						}
						n := h.len()
						runs, err := decideReadyAndMine(p, retry)
						reqs := h.since(n)
						t.Logf("= %v; requests %v", err, reqs)
						checkNotMine(t, retry, runs, err, key)
						// A 409 to a request sent once is settled by its
						// answer (sends.go): the history is not read. The
						// lists route of a resent request's 409 is the
						// oracle's (oracle_test.go).
						if slices.Contains(reqs, "LIST exact") {
							t.Fatalf("requests %v: a 409 to a request sent once listed the history", reqs)
						}
					})
				}
			}
		}
	}
}

// otherEntry is the time of the other controller's status entry in w.
func otherEntry(w *v1.Widget, manager string) *metav1.Time {
	for _, e := range w.ManagedFields {
		if e.Manager == manager && e.Subresource == "status" {
			return e.Time
		}
	}
	return nil
}

// Case 2: distinct field managers; the other controller writes twice
// within one second (phase Pending, then Ready): its managedFields entry
// keeps its time and fields, so it does not look stamped. Ours (merge and
// WriteApply) sets phase=Ready and "mine" and gets a 409. Before: values
// decided, and the other's version was taken for ours: nil, "mine" lost.
// The two writes are made to fall in one second by trying again on a new
// object when the server's entry shows they did not (what is staged is
// checked, nothing is timed).
func TestExactSameSecondWritesOfAnotherManager(t *testing.T) {
	e := env(t)
	modes := writeModes[:2] // merge and WriteApply: both carry the lock
	for _, m := range modes {
		for _, route := range []string{"plain client", "WithWatcher"} {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/%s", m.name, route, map[bool]string{false: "Flush", true: "Retry"}[retry]), func(t *testing.T) {
					for attempt := 0; ; attempt++ {
						if attempt == 10 {
							t.Fatal("the other controller's two writes never fell in one second")
						}
						key := newWidget(t, e.Client)
						other, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, ownerOpts("other-controller")...)
						if err != nil {
							t.Fatal(err)
						}
						other.Object().Status.Phase = "Pending"
						if err := other.Flush(ctx); err != nil {
							t.Fatal(err)
						}
						h := &historyTrace{}
						p := routedPatcher(t, route, h, key, append(ownerOpts("mine-controller"), m.opt)...)
						other.Object().Status.Phase = "Ready"
						if err := other.Flush(ctx); err != nil {
							t.Fatal(err)
						}
						before, after := otherEntry(p.Object(), "other-controller"), otherEntry(get(t, e.Client, key), "other-controller")
						if before == nil || after == nil || !before.Equal(after) {
							continue // another second: the entry tells; stage it again
						}
						runs, err := decideReadyAndMine(p, retry)
						t.Logf("attempt %d: = %v; requests %v", attempt, err, h.since(0))
						checkNotMine(t, retry, runs, err, key)
						return
					}
				})
			}
		}
	}
}

// Cases 3 and 4: an apply to a +listType=set list, stored, its response
// lost (a reset after the server applied it), no other writer. Case 3:
// another manager shares the set (x); ours adds y. Case 4: ours owns x
// and re-sends it with a new y. Before: case 3 was a Conflict (the set
// compared as one atomic value) and Retry ran the decision twice; case 4
// was ErrWriteOutcomeUnknown (the re-sent x read as a removal). After:
// nil, mutate run once, the set holds x and y once each.
func TestExactAStoredApplyToASetList(t *testing.T) {
	e := setEnv(t)
	for _, shared := range []bool{true, false} {
		for _, m := range writeModes[1:] {
			for _, retry := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/%s", map[bool]string{true: "case 3: x is another manager's", false: "case 4: x is ours, re-sent"}[shared],
					m.name, map[bool]string{false: "Flush", true: "Retry"}[retry])
				t.Run(name, func(t *testing.T) {
					key := newWidget(t, e.Client)
					owner := applier
					if shared {
						owner = "other-controller"
					}
					first := fetchApply(t, e.Client, key, m.opt, patcher.WithFieldOwner(owner))
					first.Object().Status.Items = []string{"x"}
					if err := first.Flush(ctx); err != nil {
						t.Fatal(err)
					}
					ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
					c := faultyClient(t, e, ft)
					p := fetchApply(t, c, key, m.opt, patcher.WithMetrics(nil), fastRetry)
					runs := 0
					mutate := func(w *v1.Widget) error {
						runs++
						w.Status.Items = append(w.Status.Items, "y")
						return nil
					}
					var err error
					if retry {
						err = p.Retry(ctx, mutate)
					} else {
						_ = mutate(p.Object())
						err = p.Flush(ctx)
					}
					got := get(t, e.Client, key).Status.Items
					slices.Sort(got)
					if err != nil || runs != 1 || ft.applied != 1 || !slices.Equal(got, []string{"x", "y"}) {
						t.Fatalf("= %v after %d runs and %d stored sends, stored %v; want nil, 1 run, 1 send, [x y]", err, runs, ft.applied, got)
					}
				})
			}
		}
	}
}

// A reader that may not get CustomResourceDefinitions (a 403, as without
// the RBAC for it): the schema that would explain the first version after
// the base cannot be read. Case 1, with the server's answer (a 409) to our
// first send replaced by a 503 with Retry-After (so client-go sends it
// again and the patcher cannot know the first was not stored; a 409 to a
// request sent once needs no settling), is then ErrWriteOutcomeUnknown, never nil
// nor a Conflict taken on trust; Retry does not run mutate again. Before:
// nil, the item lost.
func TestExactWithoutTheSchemaIsUnknown(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			refused, lost := 0, false
			c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper {
				return roundTripFunc(func(req *http.Request) (*http.Response, error) {
					if strings.Contains(req.URL.Path, "/customresourcedefinitions/") {
						refused++
						return statusResponse(req, http.StatusForbidden, "Forbidden", "may not get customresourcedefinitions (injected)", nil), nil
					}
					if !lost && req.Method == http.MethodPatch && strings.HasSuffix(req.URL.Path, "/status") {
						lost = true
						resp, err := rt.RoundTrip(req)
						if err != nil {
							return nil, err
						}
						_ = resp.Body.Close()
						return statusResponse(req, http.StatusServiceUnavailable, "ServiceUnavailable", "the server's answer was lost (injected)", http.Header{"Retry-After": {"0"}}), nil
					}
					return rt.RoundTrip(req)
				})
			})
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, ownerOpts("")...)
			if err != nil {
				t.Fatal(err)
			}
			// The other writer is not one of this process's patchers (whose
			// answered versions the patcher knows: exact evidence of
			// another write); it shares the manager name (none: the user
			// agent's), so only the schema could tell.
			o := get(t, e.Client, key)
			before := o.DeepCopy()
			o.Status.Phase = "Ready"
			if err := ownClient(t).Status().Patch(ctx, o, client.MergeFrom(before)); err != nil {
				t.Fatal(err)
			}
			runs, err := decideReadyAndMine(p, retry)
			got := get(t, e.Client, key)
			if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || runs != 1 || countOf(got.Status.Items, "mine") != 0 || refused == 0 {
				t.Fatalf("= %v after %d runs (%d schema reads refused), stored %+v; want ErrWriteOutcomeUnknown, 1 run, nothing of mine stored", err, runs, refused, got.Status)
			}
			if !strings.Contains(err.Error(), "schema") {
				t.Fatalf("the error does not say the schema was lacking: %v", err)
			}
		})
	}
}
