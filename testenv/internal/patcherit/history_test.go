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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 23, item 1, the case a read cannot settle: the write is stored,
// its response is lost as a 500 with Retry-After, another writer writes
// over it (from the version it produced) before client-go's own second
// send, and that second send gets the server's real 409. The object then
// holds neither the base nor this write's status; only the object's
// history tells that the first write after the base was this one.

// historyOptions are the options of the patchers under test here; c is
// the client whose requests the test sees.
func historyOptions(c client.WithWatch) []patcher.Option {
	return []patcher.Option{patcher.WithMetrics(nil), fastRetry, patcher.WithWatcher(c)}
}

// The forced sequence: our PATCH reaches the server and is stored; inside
// the transport, before the response is returned, another writer appends
// "theirs" to the version our write produced; the response becomes a 500
// ServerTimeout with Retry-After: 0; client-go sends the PATCH again and
// the server answers 409. Flush and Retry must both return nil with
// "mine" stored once and mutate run once.
//
// Before: Flush returned the resend's Conflict (for a write that landed),
// and Retry ran mutate again: items [mine theirs mine]. After: both nil,
// items [mine theirs], the object is the server's.
func TestALandedWriteOvertakenBeforeTheResend(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			other := ownClient(t)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwrittenRetryAfter, after: true}}, foreign: foreignAppend(other, key, "theirs")}
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := decideMine(p, retry)
			server := get(t, e.Client, key)
			if err != nil || runs != 1 || !slices.Equal(server.Status.Items, []string{"mine", "theirs"}) {
				t.Fatalf("%s = %v after %d runs of mutate, items %v; want nil, 1 run, [mine theirs]",
					map[bool]string{true: "Retry", false: "Flush"}[retry], err, runs, server.Status.Items)
			}
			if ft.patches != 2 {
				t.Fatalf("%d status PATCHes reached the transport; the sequence needs 2 (ours, client-go's resend)", ft.patches)
			}
			if got := p.Object(); got.ResourceVersion != server.ResourceVersion || p.HasChanges() ||
				fmt.Sprint(got.Status.Items) != fmt.Sprint(server.Status.Items) {
				t.Fatalf("the object (resourceVersion %s, items %v, changes %v) is not the server's (%s)",
					got.ResourceVersion, got.Status.Items, p.HasChanges(), server.ResourceVersion)
			}
		})
	}
}

// reqLog records every request a client sends, as "METHOD what": "PATCH
// status", "GET", "WATCH" (a GET with watch=true).
type reqLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *reqLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		what := req.Method
		switch {
		case req.URL.Query().Get("watch") == "true":
			what = "WATCH"
		case strings.HasSuffix(req.URL.Path, "/status"):
			what += " status"
		}
		l.mu.Lock()
		l.reqs = append(l.reqs, what)
		l.mu.Unlock()
		return rt.RoundTrip(req)
	})
}

// since returns the requests recorded after the first n.
func (l *reqLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs[n:]...)
}

func (l *reqLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// loggedFaultyClient is faultyClient whose requests (client-go's resends
// included, each as sent) are also recorded in log; then wrap, if given,
// sees them first.
func loggedFaultyClient(t *testing.T, e *testenv.Env, ft *faultyTransport, log *reqLog, wrap func(http.RoundTripper) http.RoundTripper) (client.WithWatch, *rest.Config) {
	t.Helper()
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		rt = log.wrap(ft.wrap(rt))
		if wrap != nil {
			rt = wrap(rt)
		}
		return rt
	})
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c, cfg
}

// The cost: an ordinary conflict (another writer wrote first, a real 409
// to the only send) is the server's refusal of the write, settled by that
// answer alone (sends.go): no read, no history. Flush: PATCH, a Conflict,
// nothing stored (issue 30 to 36: PATCH, GET, WATCH). Retry: PATCH, GET,
// PATCH (before: PATCH, GET, WATCH, PATCH), mutate run twice, [theirs
// mine].
func TestAnOrdinaryConflictCostsNoRequestMore(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultForeign}}, foreign: foreignAppend(ownClient(t), key, "theirs")}
			log := &reqLog{}
			c, _ := loggedFaultyClient(t, e, ft, log, nil)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			n := log.len()
			runs := 0
			mutate := func(w *v1.Widget) error { runs++; return appendItem("mine")(w) }
			var want []string
			if retry {
				err = p.Retry(ctx, mutate)
				want = []string{"PATCH status", "GET", "PATCH status"}
			} else {
				_ = mutate(p.Object())
				err = p.Flush(ctx)
				want = []string{"PATCH status"}
			}
			items := get(t, e.Client, key).Status.Items
			switch {
			case !retry && (!apierrors.IsConflict(err) || countOf(items, "mine") != 0):
				t.Fatalf("Flush = %v, items %v; want a Conflict, nothing of mine stored", err, items)
			case retry && (err != nil || runs != 2 || !slices.Equal(items, []string{"theirs", "mine"})):
				t.Fatalf("Retry = %v after %d runs, items %v; want nil, 2 runs, [theirs mine]", err, runs, items)
			}
			if got := log.since(n); !slices.Equal(got, want) {
				t.Fatalf("requests %v; want %v (the 409 of the only send settles the write)", got, want)
			}
		})
	}
}

// errorEventWatch answers every watch as the API server's watch cache
// answers one from a resourceVersion older than it keeps: 200, then one
// ERROR event carrying a 410 Expired.
func errorEventWatch(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Query().Get("watch") != "true" {
			return rt.RoundTrip(req)
		}
		body := `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",` +
			`"message":"too old resource version: 1 (2) (injected)","reason":"Expired","code":410}}` + "\n"
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader([]byte(body))), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
	})
}

// forbiddenWatch refuses every watch with a 403, as the server does for a
// controller without the watch permission.
func forbiddenWatch(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Query().Get("watch") != "true" {
			return rt.RoundTrip(req)
		}
		body := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"widgets is forbidden: cannot watch (injected)","reason":"Forbidden","code":403}`
		return &http.Response{StatusCode: http.StatusForbidden, Status: "403 Forbidden", Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader([]byte(body))), ContentLength: int64(len(body)), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
	})
}

// The history cannot be read: in the forced sequence (client-go resent
// the write) ErrWriteOutcomeUnknown, never a Conflict, mutate run once,
// "mine" stored once. An ordinary conflict (another writer first, the
// server's 409 to the only send) does not need the history: a Conflict
// for Flush, nothing stored; Retry decides again and stores it once
// (issue 37; before, it was ErrWriteOutcomeUnknown too).
func TestUnreadableHistoryIsAnUnknownOutcome(t *testing.T) {
	e := env(t)
	t.Run("the server's own answer to a too old resourceVersion", func(t *testing.T) {
		// What errorEventWatch injects is what the server sends.
		newWidget(t, e.Client)
		c, err := client.NewWithWatch(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
		if err != nil {
			t.Fatal(err)
		}
		w, err := c.Watch(ctx, &v1.WidgetList{}, &client.ListOptions{Namespace: "default", Raw: &metav1.ListOptions{ResourceVersion: "1"}})
		if err != nil {
			t.Fatal(err)
		}
		ev := <-w.ResultChan()
		w.Stop()
		if err := apierrors.FromObject(ev.Object); ev.Type != watch.Error || !apierrors.IsResourceExpired(err) {
			t.Fatalf("a watch from resourceVersion 1 began with %s %v; want an ERROR event with a 410 Expired", ev.Type, err)
		}
	})
	for _, watchFault := range []struct {
		name string
		wrap func(http.RoundTripper) http.RoundTripper
	}{{"410 in an ERROR event", errorEventWatch}, {"403", forbiddenWatch}} {
		for _, f := range []fault{faultOverwrittenRetryAfter, faultForeign} {
			for _, retry := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/%s", watchFault.name, f, map[bool]string{false: "Flush", true: "Retry"}[retry])
				t.Run(name, func(t *testing.T) {
					key := newWidget(t, e.Client)
					ft := &faultyTransport{plan: []plannedFault{{kind: f, after: f == faultOverwrittenRetryAfter}}, foreign: foreignAppend(ownClient(t), key, "theirs")}
					c, _ := loggedFaultyClient(t, e, ft, &reqLog{}, watchFault.wrap)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
					if err != nil {
						t.Fatal(err)
					}
					runs, err := decideMine(p, retry)
					mine := countOf(get(t, e.Client, key).Status.Items, "mine")
					switch {
					case f == faultForeign && !retry:
						if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || mine != 0 {
							t.Fatalf("= %v, mine stored %d times; want the server's Conflict, nothing stored", err, mine)
						}
					case f == faultForeign:
						if err != nil || runs != 2 || mine != 1 {
							t.Fatalf("= %v after %d runs, mine stored %d times; want nil, 2 runs, stored once", err, runs, mine)
						}
					case !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || runs != 1 || mine != 1:
						t.Fatalf("= %v after %d runs, mine stored %d times; want ErrWriteOutcomeUnknown, not a Conflict, 1 run, 1 stored", err, runs, mine)
					}
				})
			}
		}
	}
}

// restManager is a manager as ForManager sees one: a client, an API
// reader, and the REST config, HTTP client, scheme and mapper a
// controller-runtime manager exposes.
type restManager struct {
	c      client.Client
	cfg    *rest.Config
	hc     *http.Client
	scheme *runtime.Scheme
	mapper meta.RESTMapper
}

func (m restManager) GetClient() client.Client       { return m.c }
func (m restManager) GetAPIReader() client.Reader    { return m.c }
func (m restManager) GetConfig() *rest.Config        { return m.cfg }
func (m restManager) GetHTTPClient() *http.Client    { return m.hc }
func (m restManager) GetScheme() *runtime.Scheme     { return m.scheme }
func (m restManager) GetRESTMapper() meta.RESTMapper { return m.mapper }

// Which watcher: ForManager makes one from a manager that exposes its REST
// config, and the forced sequence is then a success; without one the
// client, a client.WithWatch, reads the history with its own watch, and
// it is a success too (before issue 30's last decision: the documented
// Conflict, without a watch; a plain client: settle409_test.go).
func TestTheWatcherComesFromTheManager(t *testing.T) {
	e := env(t)
	for _, withManager := range []bool{true, false} {
		t.Run(map[bool]string{true: "ForManager", false: "no watcher"}[withManager], func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwrittenRetryAfter, after: true}}, foreign: foreignAppend(ownClient(t), key, "theirs")}
			log := &reqLog{}
			c, cfg := loggedFaultyClient(t, e, ft, log, nil)
			var pc client.Client = c
			if withManager {
				hc, err := rest.HTTPClientFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				// The manager's client is a plain client.Client: the watcher
				// can only come from the config.
				plain, err := client.New(cfg, client.Options{HTTPClient: hc, Scheme: e.Scheme, Mapper: e.Mapper})
				if err != nil {
					t.Fatal(err)
				}
				pc = patcher.ForManager(restManager{c: plain, cfg: cfg, hc: hc, scheme: e.Scheme, mapper: e.Mapper})
			}
			p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			_ = appendItem("mine")(p.Object())
			err = p.Flush(ctx)
			mine := countOf(get(t, e.Client, key).Status.Items, "mine")
			watched := slices.Contains(log.since(0), "WATCH")
			if err != nil || mine != 1 || !watched {
				t.Fatalf("Flush = %v, mine stored %d times, watched %v; want nil, 1, true", err, mine, watched)
			}
		})
	}
}
