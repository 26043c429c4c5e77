package patcherit_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 49, case 6: an intermediary that resends. A reverse proxy between
// the client and the API server (as Envoy with retry_on: reset does for
// every method) forwards our status PATCH, which the server stores, loses
// the upstream answer and sends the request again itself; the server
// answers that resend 409 (the lock: our own write moved the object past
// the base), and the proxy returns the 409. The client's transport saw one
// send, so the sent-once rule took the 409 as the server's refusal of the
// write: a Conflict for a stored write, and Retry wrote "mine" twice.
//
// No per-request count can see through the proxy: the patcher is told,
// with WithResendingIntermediary, and then settles every 409 from the
// server's records.

// resendingIntermediaryOptions are the patcher options for a client behind
// a resending intermediary.
var resendingIntermediaryOptions = []patcher.Option{patcher.WithResendingIntermediary()}

func TestIssue49AResendingProxyIsNotAConflict(t *testing.T) {
	e := env(t)
	for _, watcher := range []bool{false, true} {
		for _, retry := range []bool{false, true} {
			name := fmt.Sprintf("%s/%s", map[bool]string{false: "plain", true: "WithWatcher"}[watcher], map[bool]string{true: "Retry", false: "Flush"}[retry])
			t.Run(name, func(t *testing.T) {
				key := newWidget(t, e.Client)
				c, resends := behindResendingProxy(t, e)
				opts := append([]patcher.Option{patcher.WithMetrics(nil), fastRetry}, resendingIntermediaryOptions...)
				if watcher {
					opts = append(opts, patcher.WithWatcher(c))
				}
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, opts...)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				if resends.Load() != 1 {
					t.Fatalf("setup: the proxy resent %d status PATCHes, want 1", resends.Load())
				}
				items := get(t, e.Client, key).Status.Items
				if n := countOf(items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, items)
				}
				wantStoredNotConflict(t, err, runs)
			})
		}
	}
}

// behindResendingProxy returns a client on e that talks to the server
// through a reverse proxy which sends the first status PATCH upstream
// twice, dropping the first answer (lost on the way back: the server
// stored the write) and returning the second. It counts its resends.
func behindResendingProxy(t *testing.T, e *testenv.Env) (client.WithWatch, *atomic.Int32) {
	t.Helper()
	upstream, err := url.Parse(e.Config.Host)
	if err != nil {
		t.Fatal(err)
	}
	if upstream.Scheme == "" { // a bare host:port
		upstream, err = url.Parse("https://" + e.Config.Host)
		if err != nil {
			t.Fatal(err)
		}
	}
	rt, err := rest.TransportFor(e.Config) // TLS and credentials to the server
	if err != nil {
		t.Fatal(err)
	}
	var resends atomic.Int32
	var done atomic.Bool
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(upstream) },
		FlushInterval: -1, // watches stream
		Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") || done.Swap(true) {
				return rt.RoundTrip(req)
			}
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			_ = req.Body.Close()
			first := req.Clone(req.Context())
			first.Body = io.NopCloser(bytes.NewReader(body))
			resp, err := rt.RoundTrip(first)
			if err != nil {
				return nil, err
			}
			_, _ = io.Copy(io.Discard, resp.Body) // the answer lost between server and proxy
			_ = resp.Body.Close()
			resends.Add(1)
			again := req.Clone(req.Context())
			again.Body = io.NopCloser(bytes.NewReader(body))
			return rt.RoundTrip(again)
		}),
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	cfg := &rest.Config{Host: srv.URL, QPS: e.Config.QPS, Burst: e.Config.Burst, UserAgent: "issue49-behind-a-proxy"}
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c, &resends
}
