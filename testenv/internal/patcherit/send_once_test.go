package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 37, "the common path exact by construction": a status write that
// went on the wire once and got a 409 was refused by the server, and that
// answer alone settles it: a Conflict, with no read, no history and no
// request more. Settling reads only for a request client-go sent again
// or whose answer was lost.

// forManagerClient is a patcher.ForManager client over a manager whose
// client, API reader and HTTP client all send through cfg (so every
// request the patcher makes is on cfg's transport), and the client.
func forManagerClient(t *testing.T, e *testenv.Env, cfg *rest.Config, opts ...patcher.Option) (*patcher.Client, client.Client) {
	t.Helper()
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := client.New(cfg, client.Options{HTTPClient: hc, Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return patcher.ForManager(restManager{c: plain, cfg: cfg, hc: hc, scheme: e.Scheme, mapper: e.Mapper}, opts...), plain
}

// foreignReady is another writer, under field manager owner ("": none,
// the server names it after the user agent), setting phase=Ready and
// observedGeneration=1: it shares phase=Ready with this test's own write.
func foreignReady(t *testing.T, key client.ObjectKey, owner string) func() error {
	c := ownClient(t)
	return func() error {
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(owner))
		if err != nil {
			return err
		}
		return p.Retry(ctx, func(w *v1.Widget) error {
			w.Status.Phase, w.Status.ObservedGeneration = "Ready", 1
			return nil
		})
	}
}

// Issue cases 1 and 2 without the settling they broke: two writers read a
// new object, the other writes first (phase=Ready, observedGeneration=1,
// within the same second), ours sets phase=Ready and appends an item. Its
// PATCH reaches the server after the other's and gets the server's 409,
// once. Flush must return that Conflict with no request after the PATCH,
// nothing of ours stored; Retry must decide again once (PATCH, GET,
// PATCH) and store the item once. For merge and apply mode, field
// managers shared, distinct or none, through a ForManager client and a
// plain one.
//
// Before: Flush sent PATCH, GET, WATCH (ForManager) or PATCH, GET (plain)
// and, with a shared or no field manager name, returned nil for the
// refused write (the item never stored).
func TestSendOnceA409IsAConflictWithNoRequestMore(t *testing.T) {
	e := env(t)
	type owners struct{ mine, theirs string }
	cases := []struct {
		mode   patcher.WriteMode
		owners owners
	}{
		{patcher.WriteMergePatch, owners{"ctl", "ctl"}},
		{patcher.WriteMergePatch, owners{"", ""}},
		{patcher.WriteMergePatch, owners{"ctl", "other"}},
		{patcher.WriteApply, owners{"ctl", "ctl"}},
		{patcher.WriteApply, owners{"ctl", "other"}},
	}
	for _, tc := range cases {
		for _, viaManager := range []bool{true, false} {
			for _, retry := range []bool{false, true} {
				name := fmt.Sprintf("mode=%v/mine=%q/theirs=%q/ForManager=%v/retry=%v", tc.mode, tc.owners.mine, tc.owners.theirs, viaManager, retry)
				t.Run(name, func(t *testing.T) {
					key := newWidget(t, e.Client)
					ft := &faultyTransport{plan: []plannedFault{{kind: faultForeign}}, foreign: foreignReady(t, key, tc.owners.theirs)}
					log := &reqLog{}
					c, cfg := loggedFaultyClient(t, e, ft, log, nil)
					opts := []patcher.Option{patcher.WithMetrics(nil), fastRetry, patcher.WithWriteMode(tc.mode)}
					if tc.owners.mine != "" {
						opts = append(opts, patcher.WithFieldOwner(tc.owners.mine))
					}
					var pc client.Client = c
					if viaManager {
						pc, _ = forManagerClient(t, e, cfg)
					}
					p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{}, opts...)
					if err != nil {
						t.Fatal(err)
					}
					n := log.len()
					runs := 0
					mutate := func(w *v1.Widget) error {
						runs++
						w.Status.Phase = "Ready"
						w.Status.Items = append(w.Status.Items, "mine")
						return nil
					}
					want := []string{"PATCH status"}
					if retry {
						err = p.Retry(ctx, mutate)
						want = []string{"PATCH status", "GET", "PATCH status"}
					} else {
						_ = mutate(p.Object())
						err = p.Flush(ctx)
					}
					got := get(t, e.Client, key).Status
					switch {
					case !retry && (!apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || countOf(got.Items, "mine") != 0):
						t.Fatalf("Flush = %v, items %v; want the server's Conflict, nothing of mine stored", err, got.Items)
					case retry && (err != nil || runs != 2 || countOf(got.Items, "mine") != 1 || got.ObservedGeneration != 1):
						t.Fatalf("Retry = %v after %d runs, status %+v; want nil, 2 runs, mine once over the other's observedGeneration", err, runs, got)
					}
					if reqs := log.since(n); !slices.Equal(reqs, want) {
						t.Fatalf("requests %v; want %v (the 409 of a request sent once settles it)", reqs, want)
					}
				})
			}
		}
	}
}

// loseFirstAnswer forwards the first status PATCH to the server (which
// stores it), then, when foreign is set, runs foreign (another writer's
// write on top of it), and answers code with Retry-After: 0, on which
// client-go sends the same PATCH again on its own; that resend gets the
// server's real 409.
func loseFirstAnswer(code int, foreign func() error) func(http.RoundTripper) http.RoundTripper {
	lost := false
	return func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if lost || req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") {
				return rt.RoundTrip(req)
			}
			lost = true
			resp, err := rt.RoundTrip(req)
			if err != nil {
				return nil, err
			}
			_ = resp.Body.Close()
			if foreign != nil {
				if err := foreign(); err != nil {
					return nil, fmt.Errorf("the foreign write failed: %w", err)
				}
			}
			return statusResponse(req, code, http.StatusText(code), "stored, then the answer was lost (injected)", http.Header{"Retry-After": {"0"}}), nil
		})
	}
}

// The fast path must not swallow a resend: client-go's own second send
// after a 429 or a 503 with Retry-After, whose first send was stored,
// gets a 409 that is not a refusal of the write. Counted on the wire, it
// is settled as before: stored, nil, the item stored once, and Retry does
// not decide again; also when another writer wrote on top of it before
// the resend (the ForManager client's watcher reads the history).
func TestSendOnceAResentWriteIsStillSettled(t *testing.T) {
	e := env(t)
	for _, code := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		for _, overwritten := range []bool{false, true} {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%d/overwritten=%v/retry=%v", code, overwritten, retry), func(t *testing.T) {
					key := newWidget(t, e.Client)
					var foreign func() error
					if overwritten {
						foreign = foreignAppend(ownClient(t), key, "theirs")
					}
					cfg := rest.CopyConfig(e.Config)
					cfg.Wrap(loseFirstAnswer(code, foreign))
					pc, _ := forManagerClient(t, e, cfg)
					p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
					if err != nil {
						t.Fatal(err)
					}
					runs, err := decideMine(p, retry)
					items := get(t, e.Client, key).Status.Items
					if err != nil || runs != 1 || countOf(items, "mine") != 1 {
						t.Fatalf("= %v after %d runs, items %v; want nil, 1 run, mine stored once", err, runs, items)
					}
				})
			}
		}
	}
}
