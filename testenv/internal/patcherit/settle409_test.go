package patcherit_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 30, the last open decision: a 409 that the read after it cannot
// settle, on a patcher without a watcher (no WithWatcher, no ForManager
// client). It was taken for a Conflict, which is false when client-go
// itself resent a write the server had stored (a 503 with Retry-After):
// Flush said Conflict for a stored write and Retry stored it twice.

// historyTrace is a transport that records each request as "PATCH status",
// "GET", "LIST exact" (a list at an exact resourceVersion) or "WATCH",
// and answers the first status PATCH as a server that stored it and then
// timed out would: the PATCH is forwarded, then (before the answer)
// foreign runs, then the answer is a 503 with Retry-After: 0, on which
// client-go sends the same PATCH again. With lose false every request
// passes through.
type historyTrace struct {
	mu      sync.Mutex
	reqs    []string
	lose    bool
	foreign func() error
	patches int
	// expired answers lists at exact resourceVersions with a 410, as the
	// server does for a compacted one.
	expired bool
}

func (h *historyTrace) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		q := req.URL.Query()
		what := req.Method
		switch {
		case q.Get("watch") == "true":
			what = "WATCH"
		case q.Get("resourceVersionMatch") == "Exact":
			what = "LIST exact"
		case strings.HasSuffix(req.URL.Path, "/status"):
			what += " status"
		}
		h.mu.Lock()
		h.reqs = append(h.reqs, what)
		lose := h.lose && what == "PATCH status" && h.patches == 0
		if what == "PATCH status" {
			h.patches++
		}
		expired := h.expired && what == "LIST exact"
		h.mu.Unlock()
		if expired {
			return statusResponse(req, http.StatusGone, "Expired", "the resourceVersion is compacted (injected)", nil), nil
		}
		if !lose {
			return rt.RoundTrip(req)
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if h.foreign != nil {
			if err := h.foreign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
		}
		return statusResponse(req, http.StatusServiceUnavailable, "ServiceUnavailable", "stored, then timed out (injected)",
			http.Header{"Retry-After": {"0"}}), nil
	})
}

// statusResponse is the server's Status answer with code.
func statusResponse(req *http.Request, code int, reason, msg string, h http.Header) *http.Response {
	header := http.Header{"Content-Type": {"application/json"}}
	for k, v := range h {
		header[k] = v
	}
	body := fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`, msg, reason, code)
	return &http.Response{StatusCode: code, Status: fmt.Sprintf("%d %s", code, reason), Header: header,
		Body: io.NopCloser(bytes.NewReader([]byte(body))), ContentLength: int64(len(body)), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

func (h *historyTrace) since(n int) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reqs[n:]...)
}

func (h *historyTrace) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.reqs)
}

// clientKinds are the clients a patcher without a watcher may be given: a
// plain client.Client (client.New: it cannot watch, so the history is
// listed at exact resourceVersions), and a client.WithWatch
// (client.NewWithWatch: its own watch reads the history).
var clientKinds = []string{"plain client", "client.WithWatch"}

// tracedClient is a client of kind on the shared server whose requests
// pass through h.
func tracedClient(t *testing.T, kind string, h *historyTrace) client.Client {
	t.Helper()
	e := env(t)
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(h.wrap)
	var c client.Client
	var err error
	if kind == "client.WithWatch" {
		c, err = client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	} else {
		c, err = client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The forced sequence, without a watcher: our PATCH is stored, another
// writer appends "theirs" on top of it, the answer is a 503 with
// Retry-After, client-go's resend gets the server's 409. Flush and Retry
// must return nil with "mine" stored once and mutate run once; the plain
// client reads the history with lists, the WithWatch client with its own
// watch.
//
// Before: Flush returned a Conflict for the stored write; Retry ran mutate
// again and stored [mine theirs mine].
func TestSettle409AResentStoredWriteWithoutAWatcher(t *testing.T) {
	e := env(t)
	for _, kind := range clientKinds {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", kind, map[bool]string{false: "Flush", true: "Retry"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				h := &historyTrace{lose: true, foreign: foreignAppend(ownClient(t), key, "theirs")}
				p, err := patcher.Fetch(ctx, tracedClient(t, kind, h), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				n := h.len()
				runs, err := decideMine(p, retry)
				server := get(t, e.Client, key)
				reqs := h.since(n)
				t.Logf("requests %v", reqs)
				if err != nil || runs != 1 || !slices.Equal(server.Status.Items, []string{"mine", "theirs"}) {
					t.Fatalf("= %v after %d runs of mutate, items %v; want nil, 1 run, [mine theirs]", err, runs, server.Status.Items)
				}
				if h.patches != 2 {
					t.Fatalf("%d status PATCHes; the sequence needs 2 (ours, client-go's resend)", h.patches)
				}
				want := map[string]string{"plain client": "LIST exact", "client.WithWatch": "WATCH"}[kind]
				if !slices.Contains(reqs, want) {
					t.Fatalf("requests %v: the history was not read with a %s", reqs, want)
				}
				if got := p.Object(); got.ResourceVersion != server.ResourceVersion || p.HasChanges() {
					t.Fatalf("the object (resourceVersion %s, changes %v) is not the server's (%s)", got.ResourceVersion, p.HasChanges(), server.ResourceVersion)
				}
			})
		}
	}
}

// contenders are the field managers of two writers of one object.
var contenders = []struct {
	name        string
	mine, other string
}{
	{"distinct field managers", "mine-controller", "other-controller"},
	{"a shared field manager", "shared-controller", "shared-controller"},
	{"no field owner (both the client's user agent)", "", ""},
}

func ownerOpts(owner string) []patcher.Option {
	opts := []patcher.Option{patcher.WithMetrics(nil), fastRetry}
	if owner != "" {
		opts = append(opts, patcher.WithFieldOwner(owner))
	}
	return opts
}

// Ordinary contention without a watcher: two patchers read the same
// version, the other writes first (within the same second), then ours gets
// the server's 409 to its only send. Flush: a Conflict, nothing of mine
// stored; Retry: nil after 2 runs, [theirs mine]: each decision stored
// once. "then a label" adds a third writer's write after theirs, so the
// read is not the very next version after the base and the history must be
// read (a list or a watch) to find that the first one was theirs.
func TestSettle409OrdinaryContentionWithoutAWatcher(t *testing.T) {
	e := env(t)
	for _, who := range contenders {
		for _, kind := range clientKinds {
			for _, more := range []bool{false, true} {
				for _, retry := range []bool{false, true} {
					name := fmt.Sprintf("%s/%s/%s/%s", who.name, kind, map[bool]string{false: "theirs", true: "theirs then a label"}[more],
						map[bool]string{false: "Flush", true: "Retry"}[retry])
					t.Run(name, func(t *testing.T) {
						key := newWidget(t, e.Client)
						other, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, ownerOpts(who.other)...)
						if err != nil {
							t.Fatal(err)
						}
						h := &historyTrace{}
						p, err := patcher.Fetch(ctx, tracedClient(t, kind, h), key, &v1.Widget{}, ownerOpts(who.mine)...)
						if err != nil {
							t.Fatal(err)
						}
						_ = appendItem("theirs")(other.Object())
						if err := other.Flush(ctx); err != nil {
							t.Fatal(err)
						}
						if more {
							if err := labelBy(ownClient(t), key, "later")(); err != nil {
								t.Fatal(err)
							}
						}
						n := h.len()
						runs, err := decideMine(p, retry)
						items := get(t, e.Client, key).Status.Items
						t.Logf("= %v; requests %v", err, h.since(n))
						switch {
						case !retry && (!apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || countOf(items, "mine") != 0):
							t.Fatalf("Flush = %v, items %v; want a Conflict, nothing of mine stored", err, items)
						case retry && (err != nil || runs != 2 || !slices.Equal(items, []string{"theirs", "mine"})):
							t.Fatalf("Retry = %v after %d runs, items %v; want nil, 2 runs, [theirs mine]", err, runs, items)
						}
					})
				}
			}
		}
	}
}

// The history cannot be read without a watcher (the lists at exact
// resourceVersions get a 410, as for a compacted resourceVersion): the
// forced sequence is ErrWriteOutcomeUnknown, never a Conflict; the message
// says how to make it decidable; Retry does not run mutate again. An
// ordinary conflict whose read is not the next version (the server's 409
// to the only send) needs no history since issue 37: a Conflict, nothing
// stored; Retry stores it once.
func TestSettle409AnUnreadableHistoryWithoutAWatcherIsUnknown(t *testing.T) {
	e := env(t)
	for _, stored := range []bool{true, false} {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("stored %v/%s", stored, map[bool]string{false: "Flush", true: "Retry"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				h := &historyTrace{expired: true}
				if stored {
					h.lose, h.foreign = true, foreignAppend(ownClient(t), key, "theirs")
				}
				p, err := patcher.Fetch(ctx, tracedClient(t, "plain client", h), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				if !stored {
					if err := foreignAppend(ownClient(t), key, "theirs")(); err != nil {
						t.Fatal(err)
					}
					if err := labelBy(ownClient(t), key, "later")(); err != nil {
						t.Fatal(err)
					}
				}
				runs, err := decideMine(p, retry)
				mine := countOf(get(t, e.Client, key).Status.Items, "mine")
				switch {
				case !stored && !retry:
					if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || mine != 0 || slices.Contains(h.since(0), "LIST exact") {
						t.Fatalf("= %v, mine stored %d times, requests %v; want the server's Conflict, nothing stored, no list", err, mine, h.since(0))
					}
					return
				case !stored:
					if err != nil || runs != 2 || mine != 1 {
						t.Fatalf("= %v after %d runs, mine stored %d times; want nil, 2 runs, stored once", err, runs, mine)
					}
					return
				}
				if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || runs != 1 || mine != 1 {
					t.Fatalf("= %v after %d runs, mine stored %d times; want ErrWriteOutcomeUnknown, not a Conflict, 1 run, 1 stored", err, runs, mine)
				}
				if !strings.Contains(err.Error(), "WithWatcher") || !strings.Contains(err.Error(), "ForManager") {
					t.Fatalf("the error does not say how to make the outcome decidable: %v", err)
				}
			})
		}
	}
}
