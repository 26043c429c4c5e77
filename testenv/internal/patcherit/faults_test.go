package patcherit_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
)

// fault is what the faulty transport does to one status PATCH.
type fault int

const (
	faultNone fault = iota
	// fault5xxRetryAfter: a 500 ServerTimeout with Retry-After: 0, which
	// client-go answers by sending the same request again on its own.
	fault5xxRetryAfter
	// fault5xx: a 503 without Retry-After, returned to the caller.
	fault5xx
	// faultReset: the connection is reset (ECONNRESET).
	faultReset
	// faultTimeout: the request times out (a net.Error whose Timeout is true).
	faultTimeout
	// faultForeign: another writer's status write lands just before the
	// request reaches the server: a real 409.
	faultForeign
	// faultOverwritten: the request is stored, another writer's write
	// lands after it, and the connection is reset before the response.
	faultOverwritten
	// faultOverwrittenRetryAfter: the request is stored, another writer's
	// write (based on it) lands after it, and the response is a 500
	// ServerTimeout with Retry-After: 0; client-go's own second send then
	// gets the server's real 409.
	faultOverwrittenRetryAfter
	// faultForeignReset: another writer's status write lands, then the
	// connection is reset before the request reaches the server: it is
	// never stored.
	faultForeignReset
)

func (f fault) String() string {
	return [...]string{"none", "500 ServerTimeout with Retry-After", "503 without Retry-After", "connection reset", "timeout", "a foreign write first", "overwritten, then a reset",
		"overwritten, then a 500 with Retry-After (the resend gets a 409)", "a foreign write, then a reset before the server"}[f]
}

// plannedFault is one fault, applied before or after the server applied
// the request (after: the request reached the server, the response is lost).
type plannedFault struct {
	kind  fault
	after bool
}

func (p plannedFault) String() string {
	when := "before"
	if p.after {
		when = "after"
	}
	return fmt.Sprintf("%s %s the server applied it", p.kind, when)
}

// faultyTransport injects planned faults into status PATCHes, one per
// request, in order; requests beyond the plan pass through. foreign runs
// another writer's write, for faultForeign.
type faultyTransport struct {
	mu      sync.Mutex
	plan    []plannedFault
	foreign func() error
	patches int // status PATCHes that reached the transport
	applied int // of those, the ones forwarded to the server
}

func (f *faultyTransport) next() (plannedFault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.patches++
	if len(f.plan) == 0 {
		return plannedFault{}, false
	}
	p := f.plan[0]
	f.plan = f.plan[1:]
	return p, true
}

func (f *faultyTransport) forwarded() {
	f.mu.Lock()
	f.applied++
	f.mu.Unlock()
}

// timeoutError is what a client-side timeout looks like to client-go.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout (injected)" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func (f *faultyTransport) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") || dryRun(req) {
			return rt.RoundTrip(req)
		}
		p, ok := f.next()
		if !ok || p.kind == faultNone {
			f.forwarded()
			return rt.RoundTrip(req)
		}
		if p.kind == faultForeign {
			if err := f.foreign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
			f.forwarded()
			return rt.RoundTrip(req)
		}
		if p.kind == faultForeignReset {
			if err := f.foreign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
			if req.Body != nil {
				_, _ = io.Copy(io.Discard, req.Body)
			}
			return nil, &netOpError{err: syscall.ECONNRESET}
		}
		if p.after {
			resp, err := rt.RoundTrip(req)
			if err != nil {
				return nil, err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			f.forwarded()
			if p.kind == faultOverwritten || p.kind == faultOverwrittenRetryAfter {
				if err := f.foreign(); err != nil {
					return nil, fmt.Errorf("the foreign write failed: %w", err)
				}
			}
		} else if req.Body != nil {
			_, _ = io.Copy(io.Discard, req.Body)
		}
		return faultResponse(req, p.kind)
	})
}

func faultResponse(req *http.Request, kind fault) (*http.Response, error) {
	switch kind {
	case faultReset, faultOverwritten:
		return nil, &netOpError{err: syscall.ECONNRESET}
	case faultTimeout:
		return nil, timeoutError{}
	}
	code, reason, header := http.StatusServiceUnavailable, "ServiceUnavailable", http.Header{"Content-Type": {"application/json"}}
	if kind == fault5xxRetryAfter || kind == faultOverwrittenRetryAfter {
		code, reason = http.StatusInternalServerError, "ServerTimeout"
		header.Set("Retry-After", "0")
	}
	body := fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"injected %s","reason":%q,"code":%d}`, kind, reason, code)
	return &http.Response{StatusCode: code, Status: fmt.Sprintf("%d %s", code, reason), Header: header,
		Body: io.NopCloser(bytes.NewReader([]byte(body))), ContentLength: int64(len(body)), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// netOpError is a connection reset as the net package reports it.
type netOpError struct{ err error }

func (e *netOpError) Error() string { return "read tcp: " + e.err.Error() + " (injected)" }
func (e *netOpError) Unwrap() error { return e.err }

// faultyClient returns a client on e whose status PATCHes pass through ft.
func faultyClient(t testing.TB, e *testenv.Env, ft *faultyTransport) client.WithWatch {
	t.Helper()
	return wrappedClient(t, e, ft.wrap)
}

// wrappedClient returns a client on e whose requests pass through wrap.
func wrappedClient(t testing.TB, e *testenv.Env, wrap func(http.RoundTripper) http.RoundTripper) client.WithWatch {
	t.Helper()
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(wrap)
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
