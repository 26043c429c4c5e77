package patcherit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// oracleEnv starts the oracle's API server for one test (or fuzz target):
// the Widget CRD with status.plan.steps a +listType=set, so that writers
// share a set list (items stays atomic, conditions are a map list); with
// the server's own transformations of a write (issue 49): status.plan
// defaults to {} and its id to "p0" (a nested default), and a second
// version, v2, is the storage version (conversion None) and alone
// defaults status.phase to "Pending" (a decision that removes phase reads
// back the storage version's default).
func oracleEnv(t testing.TB) *testenv.Env {
	t.Helper()
	return widgetServer(t, "the oracle's", oracleCRD)
}

// oracleCRD is the oracle's edit of the Widget CRD (oracleEnv).
func oracleCRD(crd *apiextensionsv1.CustomResourceDefinition) {
	widgetStatus(crd, func(status *apiextensionsv1.JSONSchemaProps) {
		plan := status.Properties["plan"]
		steps := plan.Properties["steps"]
		set := "set"
		steps.XListType = &set
		plan.Properties["steps"] = steps
		status.Properties["plan"] = plan
	})
	nestPlanDefaults(crd)
	storagePhaseDefault(crd)
}

// fault429 is a 429 with Retry-After: 0, which client-go answers by
// sending the request again: the oracle's fault beyond faults_test.go's.
const fault429 fault = 100

// faultProxyResend is an intermediary that resends (a reverse proxy
// retrying on reset): the request is forwarded and stored, its answer is
// lost, the intermediary sends it again on its own (the client's trace
// does not see it: one send counted) and returns the resend's answer, a
// 409. Only writers given WithResendingIntermediary draw it.
const faultProxyResend fault = 101

// oracleFaults are the faults a schedule draws from for a decision's
// status PATCHes (before or after the server applied the request).
var oracleFaults = append(append([]plannedFault(nil), fuzzFaults...),
	plannedFault{kind: fault429}, plannedFault{kind: fault429, after: true},
	plannedFault{kind: faultForeignReset})

// faultName names a planned fault, fault429 included.
func faultName(p plannedFault) string {
	if p.kind == faultProxyResend {
		return "an intermediary's own resend after the server applied it"
	}
	if p.kind != fault429 {
		return p.String()
	}
	if p.after {
		return "429 with Retry-After after the server applied it"
	}
	return "429 with Retry-After before the server applied it"
}

// lostResponse tells whether a fault hides the server's answer to the
// request it hit (the only faults after which the docs allow
// ErrWriteOutcomeUnknown): everything but none and another writer first.
func lostResponse(p plannedFault) bool {
	return p.kind != faultNone && p.kind != faultForeign
}

// send is one status PATCH of a decision, as the transport saw it.
type send struct {
	fault   plannedFault
	reached bool   // forwarded to the server
	code    int    // the server's status code (0: not reached or no answer)
	rv      string // the resourceVersion the server answered with (2xx)
	seq     int64  // when the answer came, in the order of all answers
}

// answers orders the server's answers across writers.
var answers atomic.Int64

// decisionKey carries a decision's *decisionRec in the request context.
type decisionKey struct{}

// decisionRec is what the oracle knows of one decision: who made it, its
// token, its sends and its verdict.
type decisionRec struct {
	id      int
	writer  int
	token   int64 // 0: a bare decision (no token)
	spec    decisionSpec
	retry   bool
	foreign bool // run inside another decision's fault
	mu      sync.Mutex
	sends   []send
	err     error
	done    bool
	runs    int // the runs of mutate
}

func (d *decisionRec) record(s send) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sends = append(d.sends, s)
	return len(d.sends) - 1
}

func (d *decisionRec) update(i int, f func(*send)) {
	d.mu.Lock()
	f(&d.sends[i])
	d.mu.Unlock()
}

// oracleTransport records every status PATCH of one writer with the
// server's answer (read here even when the fault then hides it from the
// client), and injects the current decision's planned faults.
type oracleTransport struct {
	mu      sync.Mutex
	plan    []plannedFault
	foreign func() error
}

func (o *oracleTransport) arm(plan []plannedFault, foreign func() error) {
	o.mu.Lock()
	o.plan, o.foreign = plan, foreign
	o.mu.Unlock()
}

func (o *oracleTransport) next() plannedFault {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.plan) == 0 {
		return plannedFault{}
	}
	p := o.plan[0]
	o.plan = o.plan[1:]
	return p
}

func (o *oracleTransport) runForeign() error {
	o.mu.Lock()
	f := o.foreign
	o.mu.Unlock()
	if f == nil {
		return nil
	}
	return f()
}

// forward sends req to the server and records its answer in s; the
// response comes back readable.
func forward(rt http.RoundTripper, req *http.Request, d *decisionRec, i int) (*http.Response, error) {
	d.update(i, func(s *send) { s.reached = true })
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var meta struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	rv := ""
	if resp.StatusCode/100 == 2 && json.Unmarshal(body, &meta) == nil {
		rv = meta.Metadata.ResourceVersion
	}
	seq := answers.Add(1)
	d.update(i, func(s *send) { s.code, s.rv, s.seq = resp.StatusCode, rv, seq })
	return resp, nil
}

func (o *oracleTransport) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		d, _ := req.Context().Value(decisionKey{}).(*decisionRec)
		if req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") || d == nil || dryRun(req) {
			return rt.RoundTrip(req)
		}
		p := o.next()
		i := d.record(send{fault: p})
		switch {
		case p.kind == faultNone:
			return forward(rt, req, d, i)
		case p.kind == faultForeign:
			if err := o.runForeign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
			return forward(rt, req, d, i)
		case p.kind == faultForeignReset:
			if err := o.runForeign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
			return lose(req, p)
		case p.kind == faultProxyResend:
			return proxyResend(rt, req, d, i)
		case !p.after:
			return lose(req, p)
		}
		resp, err := forward(rt, req, d, i)
		if err != nil {
			return nil, err
		}
		_ = resp.Body.Close()
		if p.kind == faultOverwritten || p.kind == faultOverwrittenRetryAfter {
			if err := o.runForeign(); err != nil {
				return nil, fmt.Errorf("the foreign write failed: %w", err)
			}
		}
		return lose(req, p)
	})
}

// proxyResend forwards req (send i of d), drops the answer and sends it
// again on a context without the client's trace, as an intermediary does,
// answering the resend's answer.
func proxyResend(rt http.RoundTripper, req *http.Request, d *decisionRec, i int) (*http.Response, error) {
	if req.GetBody == nil {
		return nil, fmt.Errorf("the request's body cannot be sent again")
	}
	again := req.Clone(context.WithValue(context.Background(), decisionKey{}, d))
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	again.Body = body
	resp, err := forward(rt, req, d, i)
	if err != nil {
		return nil, err
	}
	_ = resp.Body.Close()
	return forward(rt, again, d, d.record(send{}))
}

// lose answers req with the fault instead of the server's answer.
func lose(req *http.Request, p plannedFault) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
	}
	switch p.kind {
	case faultForeignReset:
		return nil, &netOpError{err: syscall.ECONNRESET}
	case fault429:
	default:
		return faultResponse(req, p.kind)
	}
	body := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"injected 429","reason":"TooManyRequests","code":429}`
	return &http.Response{StatusCode: http.StatusTooManyRequests, Status: "429 Too Many Requests",
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"0"}},
		Body:   io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// lagClient is a client whose Gets of the Widget return a snapshot (the
// writer's base) for the next lag reads after arm: a cache or a reader
// that lags. It is no client.WithWatch.
type lagClient struct {
	client.Client
	mu   sync.Mutex
	old  *v1.Widget
	left int
}

func (l *lagClient) arm(old *v1.Widget, lag int) {
	l.mu.Lock()
	l.old, l.left = old, lag
	l.mu.Unlock()
}

func (l *lagClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	l.mu.Lock()
	stale := l.left > 0 && l.old != nil
	if stale {
		l.left--
	}
	old := l.old
	l.mu.Unlock()
	if w, ok := obj.(*v1.Widget); ok && stale {
		old.DeepCopyInto(w)
		return nil
	}
	return l.Client.Get(ctx, key, obj, opts...)
}

// writerClient builds the client of one writer of a schedule, its
// transport and (for a lagging writer) its lagging reader, and the
// options its patchers take.
func writerClient(t testing.TB, e *testenv.Env, w oracleWriter) (client.Client, *oracleTransport, *lagClient, []patcher.Option) {
	t.Helper()
	ot := &oracleTransport{}
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(ot.wrap)
	if w.noCRDs {
		cfg.Wrap(forbidCRDs)
	}
	opts := []patcher.Option{patcher.WithMetrics(nil), fastRetry, patcher.WithWriteMode(w.mode)}
	if w.manager != "" {
		opts = append(opts, patcher.WithFieldOwner(w.manager))
	}
	if w.proxied {
		opts = append(opts, patcher.WithResendingIntermediary())
	}
	if w.token {
		opts = append(opts, withToken)
	}
	c, lag, opts := writerClientOf(t, e, w, cfg, opts)
	if w.dropsCtx {
		c = ownContextClient{c}
	}
	return c, ot, lag, opts
}

func writerClientOf(t testing.TB, e *testenv.Env, w oracleWriter, cfg *rest.Config, opts []patcher.Option) (client.Client, *lagClient, []patcher.Option) {
	switch w.client {
	case clientWatcher:
		c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
		if err != nil {
			t.Fatal(err)
		}
		return c, nil, append(opts, patcher.WithWatcher(c))
	case clientManager:
		hc, err := rest.HTTPClientFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := client.New(cfg, client.Options{HTTPClient: hc, Scheme: e.Scheme, Mapper: e.Mapper})
		if err != nil {
			t.Fatal(err)
		}
		return patcher.ForManager(restManager{c: plain, cfg: cfg, hc: hc, scheme: e.Scheme, mapper: e.Mapper}), nil, opts
	}
	plain, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case w.lag == lagReader:
		l := &lagClient{Client: plain}
		return plain, l, append(opts, patcher.WithAPIReader(l))
	case w.lag == lagCache:
		l := &lagClient{Client: plain}
		return l, l, opts
	case w.strips:
		// As a manager's cache with a DefaultTransform, beside its API
		// reader (ForManager's: docs/patcher.md).
		return strippingClient{plain}, nil, append(opts, patcher.WithAPIReader(plain))
	}
	return plain, nil, opts
}

// forbidCRDs refuses every request for CustomResourceDefinitions with a
// 403, as the server does for a role without them (the usual operator
// role).
func forbidCRDs(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if strings.Contains(req.URL.Path, "/customresourcedefinitions") {
			return statusResponse(req, http.StatusForbidden, "Forbidden", "may not get customresourcedefinitions (injected)", nil), nil
		}
		return rt.RoundTrip(req)
	})
}

// dryRun reports whether req is a server-side dry run (the patcher's
// probe whether the server stores the write token): no write, not one of
// a decision's sends, and no fault of theirs.
func dryRun(req *http.Request) bool {
	return req.URL.Query().Get("dryRun") != ""
}
