package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 30, items 1, 4 and 5: a write is settled by what the server said
// about it (managedFields of this manager, the object's history, the lock),
// not by comparing values. These are the cases where values lie.

// labelBy is another manager (its own client) setting a label, a field the
// decision under test does not touch.
func labelBy(c client.Client, key client.ObjectKey, value string) func() error {
	return func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Labels = map[string]string{"other": value}
		return c.Update(ctx, w, client.FieldOwner("other-controller"))
	}
}

func conditionTypes(w *v1.Widget) []string {
	var out []string
	for _, c := range w.Status.Conditions {
		out = append(out, c.Type)
	}
	return out
}

// Item 1: an apply that removes one of our own conditions (a keyed list
// member) is
// refused (another manager changed an unrelated field first: a 409), or
// never reaches the server. The applied fields all still hold their values,
// so a value comparison calls the write stored; it is not: the server
// still holds the condition. Flush and Retry must never return nil while the
// member is on the server, and Retry (with a watcher: the history shows
// the other manager's write came first) must remove it.
//
// Before: Flush and Retry returned nil after one run; the server held b.
func TestSettleAnApplyRemovalIsStoredOnlyWhenGone(t *testing.T) {
	e := env(t)
	cases := []plannedFault{{kind: faultForeign}, {kind: faultForeignReset}}
	for _, f := range cases {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", f, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				first := fetchApply(t, e.Client, key, patcher.WithMetrics(nil))
				first.Object().Status.Conditions = []metav1.Condition{cond("A", "Up"), cond("B", "Up")}
				if err := first.Flush(ctx); err != nil {
					t.Fatal(err)
				}
				ft := &faultyTransport{plan: []plannedFault{f}, foreign: labelBy(ownClient(t), key, "elsewhere")}
				c := faultyClient(t, e, ft)
				p := fetchApply(t, c, key, historyOptions(c)...)
				runs := 0
				drop := func(w *v1.Widget) error {
					runs++
					meta.RemoveStatusCondition(&w.Status.Conditions, "B")
					return nil
				}
				var err error
				if retry {
					err = p.Retry(ctx, drop)
				} else {
					_ = drop(p.Object())
					err = p.Flush(ctx)
				}
				got := get(t, e.Client, key)
				held := meta.FindStatusCondition(got.Status.Conditions, "B") != nil
				if err == nil && held {
					t.Fatalf("returned nil after %d runs, but the server still holds condition B (conditions %v)", runs, conditionTypes(got))
				}
				if retry && (err != nil || held || runs != 2) {
					t.Fatalf("Retry = %v after %d runs, conditions %v; want nil after 2 runs, B removed", err, runs, conditionTypes(got))
				}
				if !retry && !apierrors.IsConflict(err) && !errors.Is(err, patcher.ErrWriteOutcomeUnknown) {
					t.Fatalf("Flush = %v; want a Conflict or ErrWriteOutcomeUnknown", err)
				}
			})
		}
	}
}

// Item 4: the server stores something else than was sent (status.plan is
// pruned by a drifted CRD, status.phase defaulted). The write is stored, its
// response lost, another writer writes over it, client-go's resend gets the
// server's 409. The history's first write after the base is this one; a
// value comparison misses it (plan is not there).
//
// Before: Flush returned a Conflict for a stored write; Retry stored mine
// twice.
func TestSettleAPrunedWriteIsRecognisedAsStored(t *testing.T) {
	e := driftedEnv(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{true: "Retry", false: "Flush"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
			if err != nil {
				t.Fatal(err)
			}
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwrittenRetryAfter, after: true}}, foreign: foreignAppend(other, key, "theirs")}
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			runs := 0
			decide := func(w *v1.Widget) error {
				runs++
				w.Status.Items = append(w.Status.Items, "mine")
				w.Status.Plan = &v1.WidgetPlan{}
				return nil
			}
			if retry {
				err = p.Retry(ctx, decide)
			} else {
				_ = decide(p.Object())
				err = p.Flush(ctx)
			}
			items := get(t, e.Client, key).Status.Items
			if err != nil || runs != 1 || countOf(items, "mine") != 1 {
				t.Fatalf("%v after %d runs, items %v; want nil, 1 run, mine stored once", err, runs, items)
			}
		})
	}
}

// laggingReader serves the object as it was when the reader was made for
// the first lag reads, then reads through: a cache behind a plain
// mgr.GetClient().
type laggingReader struct {
	client.Client
	mu   sync.Mutex
	old  *v1.Widget
	lag  int
	gets int
}

func (r *laggingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.mu.Lock()
	r.gets++
	stale := r.gets <= r.lag
	r.mu.Unlock()
	if w, ok := obj.(*v1.Widget); ok && stale {
		r.old.DeepCopyInto(w)
		return nil
	}
	return r.Client.Get(ctx, key, obj, opts...)
}

// Item 5: the write is stored, its response lost (500 with Retry-After),
// client-go's resend gets a 409, and the read back comes from a reader that
// still serves the base. The 409 proves the server moved past the base:
// a read at the base is no evidence that the write was not stored.
//
// Before: Flush returned a Conflict for a stored write.
func TestSettleALaggingReaderIsNoEvidence(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	ft := &faultyTransport{plan: []plannedFault{{kind: fault5xxRetryAfter, after: true}}}
	c := faultyClient(t, e, ft)
	lr := &laggingReader{Client: e.Client, old: get(t, e.Client, key), lag: 1}
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithAPIReader(lr))
	if err != nil {
		t.Fatal(err)
	}
	lr.mu.Lock()
	lr.gets = 0
	lr.mu.Unlock()
	_ = appendItem("mine")(p.Object())
	err = p.Flush(ctx)
	if apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v: a Conflict for a stored write", err)
	}
	if n := countOf(get(t, e.Client, key).Status.Items, "mine"); n != 1 || (err != nil && !errors.Is(err, patcher.ErrWriteOutcomeUnknown)) {
		t.Fatalf("Flush = %v, mine stored %d times; want nil or ErrWriteOutcomeUnknown, once", err, n)
	}
}

// Item 5: the context ends while a 409 is being settled (Retry's backoff
// after the resend's 409 of a stored write). The outcome is unknown.
//
// Before: Retry returned a bare context error.
func TestSettleAContextEndingDuringA409IsUnknown(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	cctx, c := cancelOnTheResend(t, e)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	err = p.Retry(cctx, func(w *v1.Widget) error { runs++; return appendItem("mine")(w) })
	if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || runs != 1 {
		t.Fatalf("Retry = %v after %d runs; want ErrWriteOutcomeUnknown, 1 run", err, runs)
	}
	if n := countOf(get(t, e.Client, key).Status.Items, "mine"); n != 1 {
		t.Fatalf("mine stored %d times", n)
	}
}

// An adversary of the managedFields evidence: another writer shares this
// patcher's field manager name (a manager-wide WithFieldOwner) and writes
// an unrelated status field; then this write is lost before the server.
// The read shows this manager's entry stamped, and this write's field
// missing: that is not a landed write, whatever the stamp says.
func TestSettleASharedManagerNameIsNoProof(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	other := ownClient(t)
	ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}, foreign: func() error {
		w := &v1.Widget{}
		if err := other.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Phase = "Busy"
		return other.Status().Update(ctx, w, client.FieldOwner("shared"))
	}}
	p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("shared"))
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Counters = map[string]int64{"x": 1}
	err = p.Flush(ctx)
	if got := get(t, e.Client, key); err == nil && got.Status.Counters["x"] != 1 {
		t.Fatalf("Flush = nil, but the server holds counters %v", got.Status.Counters)
	}
}

// The same with Flush, which settles the resend's 409 itself: the context
// has ended when it would read the object back, so the outcome is unknown,
// and the error matches the context's error (the table in docs/patcher.md)
// while it is still never a Conflict.
//
// Before: the context error was wrapped inside the 409, which
// WriteOutcomeUnknownError drops, so errors.Is(err, context.Canceled) was
// false.
func TestSettleAContextEndingDuringAFlush409IsUnknownAndTheContextError(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	cctx, c := cancelOnTheResend(t, e)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := appendItem("mine")(p.Object()); err != nil {
		t.Fatal(err)
	}
	err = p.Flush(cctx)
	if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !errors.Is(err, context.Canceled) || apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v; want ErrWriteOutcomeUnknown matching context.Canceled, not a Conflict", err)
	}
	if n := countOf(get(t, e.Client, key).Status.Items, "mine"); n != 1 {
		t.Fatalf("mine stored %d times", n)
	}
}

// cancelOnTheResend returns a client whose first status PATCH is stored
// and answered with a 500 carrying Retry-After, so client-go sends it
// again and gets the server's 409, and a context that is cancelled as
// that 409 comes back.
func cancelOnTheResend(t *testing.T, e *testenv.Env) (context.Context, client.Client) {
	cctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	ft := &faultyTransport{plan: []plannedFault{{kind: fault5xxRetryAfter, after: true}}}
	patches := 0
	c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper {
		inner := ft.wrap(rt)
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := inner.RoundTrip(req)
			if req.Method == http.MethodPatch {
				if patches++; patches == 2 {
					cancel() // the resend's 409 is on its way back
				}
			}
			return resp, err
		})
	})
	return cctx, c
}
