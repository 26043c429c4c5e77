package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Rows of docs/patcher.md's error table that had no test of their own
// (issue 37's leftovers): the size refusal's two branches and what its
// error carries, and two causes of ErrWriteOutcomeUnknown (the object
// could not be read back; reads that still showed the base after three
// tries). errtable_history_test.go has the watch's bound, owned
// conditions' exhaustion and the null write.

// The status is too large to store, by both of the server's answers: under
// etcd's limit of the API server's etcd client (2 MiB) etcd refuses it
// ("etcdserver: request is too large"); over it the client refuses to send
// it (gRPC's ResourceExhausted), both under the API server's request limit
// (3 MB). Either way ErrStatusTooLarge after one PATCH, never
// ErrWriteOutcomeUnknown; the error names the status's size and the
// request's (WriteBytes is the body that went on the wire) and unwraps to
// the server's 500. Merge and apply mode.
func TestErrTableStatusTooLargeBothBranches(t *testing.T) {
	e := env(t)
	branches := []struct {
		name, answer string
		size         int
	}{
		{"over etcd's limit", "etcdserver: request is too large", 1600 * 1024},
		{"over the etcd client's limit", "ResourceExhausted", 2300 * 1024},
	}
	for _, b := range branches {
		for _, mode := range refusedModes {
			t.Run(fmt.Sprintf("%s/%v", b.name, mode), func(t *testing.T) {
				key := newWidget(t, e.Client)
				c, rec := countingClient(t, e)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("ctl"), patcher.WithWriteMode(mode), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				n := len(rec.requests())
				big := strings.Repeat("x", b.size)
				if err := appendItem(big)(p.Object()); err != nil {
					t.Fatal(err)
				}
				err = p.Flush(ctx)
				reqs := rec.requests()[n:]
				if len(reqs) != 1 || reqs[0].Method != http.MethodPatch || !strings.HasSuffix(reqs[0].Path, "/status") {
					t.Fatalf("%d requests (%v); want one status PATCH", len(reqs), methods(reqs))
				}
				var tle *patcher.StatusTooLargeError
				if !errors.As(err, &tle) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !strings.Contains(err.Error(), b.answer) {
					t.Fatalf("Flush = %v; want ErrStatusTooLarge from the server's %q, not ErrWriteOutcomeUnknown", err, b.answer)
				}
				if tle.WriteBytes != len(reqs[0].Body) || tle.StatusBytes < len(big) || tle.Object != "Widget "+key.String() {
					t.Fatalf("WriteBytes %d, StatusBytes %d, Object %q; want the body sent (%d bytes), a status of at least %d bytes, Widget %s",
						tle.WriteBytes, tle.StatusBytes, tle.Object, len(reqs[0].Body), len(big), key)
				}
				if msg := err.Error(); !strings.Contains(msg, fmt.Sprint(tle.StatusBytes)) || !strings.Contains(msg, fmt.Sprint(tle.WriteBytes)) {
					t.Fatalf("the message does not name both sizes (%d, %d): %v", tle.StatusBytes, tle.WriteBytes, err)
				}
				if !apierrors.IsInternalError(err) {
					t.Fatalf("Flush = %v; want it to unwrap to the server's 500", err)
				}
				if got := get(t, e.Client, key).Status.Items; len(got) != 0 {
					t.Fatalf("the server holds %d items; want none", len(got))
				}
			})
		}
	}
}

// methods lists the requests as "METHOD path".
func methods(reqs []request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Method + " " + r.Path
	}
	return out
}

// failReadsAfterAPatch answers every GET with a 503 (no Retry-After, so
// client-go does not send it again) once a status PATCH went through it:
// the object cannot be read back.
func failReadsAfterAPatch(rt http.RoundTripper) http.RoundTripper {
	var patched atomic.Bool
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		switch {
		case req.Method == http.MethodPatch:
			patched.Store(true)
		case req.Method == http.MethodGet && patched.Load():
			return statusResponse(req, http.StatusServiceUnavailable, "ServiceUnavailable", "the read is refused (injected)", nil), nil
		}
		return rt.RoundTrip(req)
	})
}

// A write stored whose answer is lost (a reset; or a 500 with Retry-After,
// whose resend by client-go gets the server's 409), and every read after it
// refused: the object could not be read back, so the outcome is
// ErrWriteOutcomeUnknown, never a Conflict, for Flush and Retry; mutate ran
// once and the item is stored once.
//
// Before: Retry, which settles a resend's 409 by its own read after the
// backoff, returned that read's 503 as it was (neither a Conflict nor
// ErrWriteOutcomeUnknown), for a write the server holds.
func TestErrTableUnknownWhenTheObjectCannotBeReadBack(t *testing.T) {
	e := env(t)
	for _, f := range []fault{faultReset, fault5xxRetryAfter} {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", f, map[bool]string{false: "Flush", true: "Retry"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				ft := &faultyTransport{plan: []plannedFault{{kind: f, after: true}}}
				c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper { return failReadsAfterAPatch(ft.wrap(rt)) })
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				mine := countOf(get(t, e.Client, key).Status.Items, "mine")
				if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || !strings.Contains(err.Error(), "could not be read back") {
					t.Fatalf("= %v; want ErrWriteOutcomeUnknown saying the object could not be read back, not a Conflict", err)
				}
				if runs != 1 || mine != 1 {
					t.Fatalf("%d runs of mutate, mine stored %d times; want 1 and 1", runs, mine)
				}
			})
		}
	}
}

// Every send of a write lost before the server (a reset), and each read
// after it still at the base: the write is sent again after each read, and
// after three reads (four sends) it is still unsettled: the last send may
// have been stored. ErrWriteOutcomeUnknown, never a Conflict, saying so;
// Flush and Retry; mutate ran once.
func TestErrTableUnknownAfterThreeReadsAtTheBase(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			lost := plannedFault{kind: faultReset}
			ft := &faultyTransport{plan: []plannedFault{lost, lost, lost, lost}}
			p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := decideMine(p, retry)
			if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || !strings.Contains(err.Error(), "still unsettled after 3 reads") {
				t.Fatalf("= %v; want ErrWriteOutcomeUnknown, still unsettled after 3 reads, not a Conflict", err)
			}
			if runs != 1 || ft.patches != 4 || ft.applied != 0 {
				t.Fatalf("%d runs, %d status PATCHes (%d reached the server); want 1 run, 4 PATCHes, none reached it", runs, ft.patches, ft.applied)
			}
			if got := get(t, e.Client, key).Status.Items; len(got) != 0 {
				t.Fatalf("the server holds %v; want nothing", got)
			}
		})
	}
}
