package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 49, case 1: two increments from one base count once (a silent
// lost update). Two controllers each Fetch the same object and set
// status.counters[restarts] = read + 1 under the lock, from the same base.
// Theirs lands first; ours is never stored, but its 409 is not the answer
// to a request sent once, so it goes through settling:
//
//	(a) the connection is reset before our request reaches the server
//	    (no send counted);
//	(b) the first send gets a 429 (as API Priority and Fairness answers,
//	    before the server processes it) and client-go's own resend gets
//	    the server's 409 (two sends counted);
//	(c) no fault: a client that runs the write on its own context, so
//	    httptrace sees no send, gets the server's real 409.
//
// The read back holds restarts=1, "the value this write sets"; settling
// took that for our write (the Fresh shortcut) and returned nil: two
// increments reported stored, one on the server. The oracle: the server's
// counter equals the number of writes reported stored. With distinct field
// owners the history is exact evidence (the first version after the base
// stamped the other manager's entry and not ours): Flush is a Conflict and
// Retry stores both (restarts=2). With one field owner shared by both
// controllers nothing tells the two writes apart: Flush is a Conflict or
// ErrWriteOutcomeUnknown, never nil; Retry stores both or reports Unknown
// with one stored.

const restarts = "restarts"

// bumpRestarts is the decision made from the base: restarts = read + 1.
func bumpRestarts(w *v1.Widget) {
	if w.Status.Counters == nil {
		w.Status.Counters = map[string]int64{}
	}
	w.Status.Counters[restarts]++
}

// issue49Owners are the field owners of the two controllers.
var issue49Owners = []struct{ name, ours, theirs string }{
	{"distinct owners", "restart-controller-a", "restart-controller-b"},
	{"shared owner", "restart-controller", "restart-controller"},
}

// counterPath is one way our write reaches settling.
type counterPath struct {
	name string
	// ours returns our client; theirs is the other controller's Flush,
	// run inside our request where the path forces it; runsTheirs says
	// whether the client runs it (else the test runs it before our write).
	ours       func(t *testing.T, e *testenv.Env, theirs func() error) client.WithWatch
	runsTheirs bool
}

var counterPaths = []counterPath{
	{name: "a reset before the server", runsTheirs: true, ours: func(t *testing.T, e *testenv.Env, theirs func() error) client.WithWatch {
		return faultyClient(t, e, &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}, foreign: theirs})
	}},
	{name: "a 429 then a resend's 409", runsTheirs: true, ours: func(t *testing.T, e *testenv.Env, theirs func() error) client.WithWatch {
		return wrappedClient(t, e, throttleFirstStatusPatch(t, theirs))
	}},
	{name: "a client that drops the context", ours: func(t *testing.T, e *testenv.Env, _ func() error) client.WithWatch {
		return contextDroppingClient(t, e)
	}},
}

func TestIssue49TwoIncrementsFromOneBaseCountTwice(t *testing.T) {
	e := env(t)
	for _, path := range counterPaths {
		for _, owners := range issue49Owners {
			for _, retry := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/%s", path.name, owners.name, map[bool]string{true: "Retry", false: "Flush"}[retry])
				t.Run(name, func(t *testing.T) {
					key := newWidget(t, e.Client)
					// Both controllers read the same base before either writes.
					var theirs, ours *patcher.Patcher[*v1.Widget]
					var theirsErr error
					theirsClient := ownClient(t)
					theirFlush := func() error {
						bumpRestarts(theirs.Object())
						theirsErr = theirs.Flush(ctx)
						return theirsErr
					}
					oursClient := path.ours(t, e, theirFlush)
					b := newBarrier(2)
					var wg sync.WaitGroup
					errs := make([]error, 2)
					wg.Add(2)
					go func() {
						defer wg.Done()
						theirs, errs[0] = patcher.Fetch(ctx, theirsClient, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(owners.theirs))
						b.wait()
					}()
					go func() {
						defer wg.Done()
						opts := append(historyOptions(oursClient), patcher.WithFieldOwner(owners.ours))
						ours, errs[1] = patcher.Fetch(ctx, oursClient, key, &v1.Widget{}, opts...)
						b.wait()
					}()
					wg.Wait()
					if err := errors.Join(errs...); err != nil {
						t.Fatal(err)
					}
					if theirs.Object().ResourceVersion != ours.Object().ResourceVersion {
						t.Fatal("setup: the two controllers read different versions")
					}
					if !path.runsTheirs {
						if err := theirFlush(); err != nil {
							t.Fatal(err)
						}
					}
					runs := 0
					var err error
					if retry {
						err = ours.Retry(ctx, func(w *v1.Widget) error { runs++; bumpRestarts(w); return nil })
					} else {
						runs++
						bumpRestarts(ours.Object())
						err = ours.Flush(ctx)
					}
					if theirsErr != nil {
						t.Fatalf("setup: the other controller's Flush = %v", theirsErr)
					}
					got := get(t, e.Client, key).Status.Counters[restarts]
					stored := int64(1) // theirs
					if err == nil {
						stored++
					}
					if got != stored {
						t.Fatalf("ours = %v after %d runs: %d writes reported stored, server restarts=%d (a lost update)", err, runs, stored, got)
					}
					exact := owners.ours != owners.theirs
					unknown := errors.Is(err, patcher.ErrWriteOutcomeUnknown)
					retried := err == nil && runs == 2 && got == 2     // decided again and stored: the sum is 2
					settledUnknown := unknown && runs == 1 && got == 1 // nothing told: decided once, theirs alone stored
					switch {
					case !retry && exact && (!apierrors.IsConflict(err) || unknown):
						t.Fatalf("Flush = %v; want a Conflict (the history shows the other manager's write first)", err)
					case !retry && !exact && !apierrors.IsConflict(err) && !unknown:
						t.Fatalf("Flush = %v; want a Conflict or ErrWriteOutcomeUnknown", err)
					case retry && exact && (err != nil || runs != 2 || got != 2):
						t.Fatalf("Retry = %v after %d runs, restarts=%d; want nil after 2 runs, restarts=2", err, runs, got)
					case retry && !exact && !retried && !settledUnknown:
						t.Fatalf("Retry = %v after %d runs, restarts=%d; want nil after 2 runs (restarts=2) or ErrWriteOutcomeUnknown after 1 (restarts=1)", err, runs, got)
					}
				})
			}
		}
	}
}

// throttleFirstStatusPatch runs theirs, then sends the first status PATCH
// on the wire to a stub that answers 429 with Retry-After: 0 without
// passing it on (API Priority and Fairness refusing it before the server
// processes it). The send goes through the client's own transport, so the
// patcher counts it; client-go sends the PATCH again on its own, and that
// resend gets the server's real 409.
func throttleFirstStatusPatch(t *testing.T, theirs func() error) func(http.RoundTripper) http.RoundTripper {
	t.Helper()
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too many requests (injected)","reason":"TooManyRequests","code":429}`)
	}))
	t.Cleanup(stub.Close)
	stubURL, err := url.Parse(stub.URL)
	if err != nil {
		t.Fatal(err)
	}
	var throttled atomic.Bool
	return func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") || throttled.Swap(true) {
				return rt.RoundTrip(req)
			}
			if err := theirs(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
			out := req.Clone(req.Context())
			out.URL.Scheme, out.URL.Host, out.Host = stubURL.Scheme, stubURL.Host, ""
			return rt.RoundTrip(out)
		})
	}
}

// contextDroppingClient is a client whose status patches run on their own
// context (an interceptor that detaches the write, as some wrappers do to
// survive a reconcile's cancellation): net/http reports none of its sends
// to the patcher.
func contextDroppingClient(t *testing.T, e *testenv.Env) client.WithWatch {
	t.Helper()
	wc, err := client.NewWithWatch(rest.CopyConfig(e.Config), client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return interceptor.NewClient(wc, interceptor.Funcs{
		SubResourcePatch: func(_ context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			return c.SubResource(sub).Patch(context.WithoutCancel(context.Background()), obj, patch, opts...)
		},
	})
}
