package patcherit_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// More rows of docs/patcher.md's error table that had no test of their
// own (errtable_test.go has the others): no event within the watch's
// bound, Retry exhaustion from Flush with owned conditions, and a null
// write from a zero status on a stale base sending no PATCH.

// silentWatch answers every watch with a stream that sends nothing until
// the watch is stopped: no event ever comes.
func silentWatch(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Query().Get("watch") != "true" {
			return rt.RoundTrip(req)
		}
		pr, _ := io.Pipe() // read until the watch's Stop closes it
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"application/json"}},
			Body: pr, Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
	})
}

// The forced sequence (stored, another writer's append on top, client-go's
// resend gets the server's 409) on a client.WithWatch without a watcher:
// the history is read by the client's own watch, which gets no event
// within its bound (2 s), then by lists at exact resourceVersions, which
// get a 410. ErrWriteOutcomeUnknown, never a Conflict, naming the watch's
// bound; mutate ran once, the item is stored once. (A configured
// watcher's bound, 10 s, is patcher/internal/history's
// TestFirstWatchBounds: too long for a test here.)
func TestErrTableNoEventWithinTheClientsOwnWatch(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	h := &historyTrace{lose: true, foreign: foreignAppend(ownClient(t), key, "theirs"), expired: true}
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return h.wrap(silentWatch(rt)) })
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	n := h.len()
	runs, err := decideMine(p, false)
	reqs := h.since(n)
	if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || !strings.Contains(err.Error(), "no event within 2s") {
		t.Fatalf("Flush = %v; want ErrWriteOutcomeUnknown naming no event within 2s, not a Conflict", err)
	}
	if !slices.Contains(reqs, "WATCH") || !slices.Contains(reqs, "LIST exact") || h.patches != 2 {
		t.Fatalf("requests %v, %d status PATCHes; want the resend, a watch and lists", reqs, h.patches)
	}
	if mine := countOf(get(t, e.Client, key).Status.Items, "mine"); runs != 1 || mine != 1 {
		t.Fatalf("%d runs, mine stored %d times; want 1 and 1", runs, mine)
	}
}

// Flush with WithOwnedConditions whose every write conflicts: another
// writer changes its own condition just before each of our status PATCHes
// reaches the server. Flush re-reads and re-applies the owned condition as
// often as the backoff's Steps allow, then returns a Conflict that matches
// ErrRetryExhausted (*RetryExhaustedError naming the object, the writes
// tried, and the bound). Nothing of ours is stored; the object keeps the
// owned change, so the same Flush, called again once the other writer
// stops, stores it beside the other writer's condition.
//
// Before: Attempts (documented as the writes tried) counted the re-applies
// only, one less than the writes.
func TestErrTableRetryExhaustedFromFlushWithOwnedConditions(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	other := ownClient(t)
	var moves atomic.Int64
	plan := make([]plannedFault, 9) // fastRetry: 8 steps, so 1 write and 8 re-applies
	for i := range plan {
		plan[i] = plannedFault{kind: faultForeign}
	}
	ft := &faultyTransport{plan: plan, foreign: func() error {
		w := &v1.Widget{}
		if err := other.Get(ctx, key, w); err != nil {
			return err
		}
		meta.SetStatusCondition(&w.Status.Conditions, cond("Ready", fmt.Sprintf("Move%d", moves.Add(1))))
		return other.Status().Update(ctx, w)
	}}
	p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry,
		patcher.WithOwnedConditions("Scheduled"), patcher.WithAPIReader(e.Client))
	if err != nil {
		t.Fatal(err)
	}
	meta.SetStatusCondition(&p.Object().Status.Conditions, cond("Scheduled", "Placed"))
	err = p.Flush(ctx)
	var ex *patcher.RetryExhaustedError
	if !errors.As(err, &ex) || !errors.Is(err, patcher.ErrRetryExhausted) || !apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v; want a Conflict matching ErrRetryExhausted", err)
	}
	if ex.Object != "Widget "+key.String() || ex.Attempts != ft.patches || ft.patches != len(plan) || !strings.Contains(ex.Reason, "owned conditions") {
		t.Fatalf("Object %q, Attempts %d, Reason %q after %d status PATCHes; want Widget %s, the %d writes, the owned conditions' bound",
			ex.Object, ex.Attempts, ex.Reason, ft.patches, key, len(plan))
	}
	if msg := err.Error(); !strings.Contains(msg, ex.Object) || !strings.Contains(msg, fmt.Sprintf("after %d attempts", ex.Attempts)) || !strings.Contains(msg, ex.Reason) {
		t.Fatalf("the message does not name the object, the attempts and the bound: %v", err)
	}
	if meta.FindStatusCondition(get(t, e.Client, key).Status.Conditions, "Scheduled") != nil {
		t.Fatal("the server holds Scheduled after every write conflicted")
	}
	if !p.HasChanges() || meta.FindStatusCondition(p.Object().Status.Conditions, "Scheduled") == nil {
		t.Fatal("the owned change is gone from memory")
	}
	if err := p.Flush(ctx); err != nil { // the plan is spent: no other writer now
		t.Fatalf("Flush again: %v", err)
	}
	got := get(t, e.Client, key).Status.Conditions
	if meta.FindStatusCondition(got, "Scheduled") == nil || meta.FindStatusCondition(got, "Ready").Reason != fmt.Sprintf("Move%d", moves.Load()) {
		t.Fatalf("server conditions %v; want Scheduled beside the other writer's last Ready", got)
	}
}

// A write of null from a status that decoded to zero, after another writer
// moved the object: the read that write needs (is there a status the Go
// type does not see?) is not at the base, so it is a Conflict with no
// PATCH sent: the only request is that read.
func TestErrTableNullWriteOnAStaleZeroBaseSendsNoPatch(t *testing.T) {
	e := env(t)
	g := newGizmo(t, e.Client)
	key := client.ObjectKeyFromObject(g)
	c, rec := countingClient(t, e)
	p := fetchGizmo(t, c, key, patcher.WithMetrics(nil))
	g.Status = v1.GizmoStatus{Notes: map[string]*string{"by": strptr("other-writer")}}
	if err := e.Client.Status().Update(ctx, g); err != nil {
		t.Fatal(err)
	}
	n := len(rec.requests())
	p.Object().Status.Phase = "Ready" // owner stays nil: the write carries a null
	err := p.Flush(ctx)
	reqs := methods(rec.requests()[n:])
	if !apierrors.IsConflict(err) || len(reqs) != 1 || !strings.HasPrefix(reqs[0], http.MethodGet+" ") {
		t.Fatalf("Flush = %v after requests %v; want a Conflict after one GET, no PATCH", err, reqs)
	}
	if got, want := storedStatus(t, e.Client, key), `{"notes":{"by":"other-writer"},"owner":null}`; got != want {
		t.Fatalf("stored %s, want %s: the other writer's status, nothing of ours", got, want)
	}
}
