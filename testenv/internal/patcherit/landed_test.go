package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 23, item 1: a write that landed is recognised as landed, whatever
// became of its response.

var landedCases = []plannedFault{
	{kind: fault5xxRetryAfter, after: true},
	{kind: fault5xxRetryAfter},
	{kind: fault5xx, after: true},
	{kind: fault5xx},
	{kind: faultReset, after: true},
	{kind: faultReset},
	{kind: faultTimeout, after: true},
	{kind: faultTimeout},
	{kind: faultForeign},
}

// Before: after a 500 ServerTimeout with Retry-After on a stored write,
// client-go's own second send got a 409; Flush returned that Conflict and
// Retry ran mutate again, storing the append twice. After: Flush and Retry
// succeed, the append is stored once and mutate ran once; a real 409 from
// another writer is still a Conflict for Flush, and Retry decides again.
func TestALandedWriteIsRecognised(t *testing.T) {
	e := env(t)
	for _, f := range landedCases {
		for _, retry := range []bool{false, true} {
			name := fmt.Sprintf("%s/Flush", f)
			if retry {
				name = fmt.Sprintf("%s/Retry", f)
			}
			t.Run(name, func(t *testing.T) {
				key := newWidget(t, e.Client)
				other := ownClient(t)
				ft := &faultyTransport{plan: []plannedFault{f}, foreign: foreignAppend(other, key, "theirs")}
				p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				items := get(t, e.Client, key).Status.Items
				mine := countOf(items, "mine")
				switch {
				case f.kind == faultForeign && !retry:
					if !apierrors.IsConflict(err) || mine != 0 {
						t.Fatalf("Flush = %v, %d of mine stored; want a Conflict and none", err, mine)
					}
				case f.kind == faultForeign:
					if err != nil || runs != 2 || !slices.Equal(items, []string{"theirs", "mine"}) {
						t.Fatalf("Retry = %v after %d runs, items %v; want nil, 2 runs, [theirs mine]", err, runs, items)
					}
				default:
					if err != nil || runs != 1 || mine != 1 {
						t.Fatalf("%s = %v after %d runs of mutate, items %v; want nil, 1 run, mine stored once",
							map[bool]string{true: "Retry", false: "Flush"}[retry], err, runs, items)
					}
					if got := p.Object(); got.ResourceVersion != get(t, e.Client, key).ResourceVersion || p.HasChanges() {
						t.Fatalf("the object (resourceVersion %s, changes %v) is not the server's", got.ResourceVersion, p.HasChanges())
					}
				}
			})
		}
	}
}

// A write that may have landed and whose outcome cannot be known: the
// response is lost and another writer overwrote the status before the
// patcher could read it back, and the history cannot be read (without a
// watcher the client's own watch is refused and the lists at past
// resourceVersions get a 410); or the context ends mid-write. Flush and
// Retry return ErrWriteOutcomeUnknown, never a Conflict, and mutate does
// not run again: the append is stored at most once.
func TestAnUnknowableOutcomeIsReportedAsSuch(t *testing.T) {
	e := env(t)
	t.Run("overwritten before the read back", func(t *testing.T) {
		for _, retry := range []bool{false, true} {
			key := newWidget(t, e.Client)
			other := ownClient(t)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwritten, after: true}}, foreign: func() error {
				w := &v1.Widget{}
				if err := other.Get(ctx, key, w); err != nil {
					return err
				}
				w.Status.Items = []string{"replaced"}
				return other.Status().Update(ctx, w)
			}}
			expired := &historyTrace{expired: true} // and lists at past resourceVersions get a 410
			c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper { return forbiddenWatch(expired.wrap(ft.wrap(rt))) })
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := decideMine(p, retry)
			if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || runs != 1 {
				t.Fatalf("retry %v: %v after %d runs; want ErrWriteOutcomeUnknown, not a Conflict, 1 run", retry, err, runs)
			}
		}
	})
	t.Run("context ends mid-write", func(t *testing.T) {
		key := newWidget(t, e.Client)
		cctx, cancel := context.WithCancel(ctx)
		cfgWrap := func(rt http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(req *http.Request) (*http.Response, error) {
				if req.Method != http.MethodPatch {
					return rt.RoundTrip(req)
				}
				resp, err := rt.RoundTrip(req)
				cancel()
				if err == nil {
					resp.Body.Close()
				}
				return nil, context.Canceled
			})
		}
		c := wrappedClient(t, e, cfgWrap)
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		err = p.Retry(cctx, func(w *v1.Widget) error { runs++; return appendItem("mine")(w) })
		if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !errors.Is(err, context.Canceled) || runs != 1 {
			t.Fatalf("Retry = %v after %d runs; want ErrWriteOutcomeUnknown and context.Canceled, 1 run", err, runs)
		}
		if n := countOf(get(t, e.Client, key).Status.Items, "mine"); n != 1 {
			t.Fatalf("mine stored %d times", n)
		}
	})
}

// Already holding, and kept: delete and re-create between Fetch and Flush
// is a Conflict (the new object does not hold the write), and Retry writes
// once to the new object; a status over 1 MB whose response is lost is
// recognised as landed.
func TestLandedCheckEdges(t *testing.T) {
	e := env(t)
	t.Run("delete and re-create", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Client.Delete(ctx, get(t, e.Client, key)); err != nil {
			t.Fatal(err)
		}
		again := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}
		if err := e.Client.Create(ctx, again); err != nil {
			t.Fatal(err)
		}
		runs := 0
		if err := p.Retry(ctx, func(w *v1.Widget) error { runs++; return appendItem("mine")(w) }); err != nil || runs != 2 {
			t.Fatalf("Retry = %v after %d runs; want nil after 2", err, runs)
		}
		if got := get(t, e.Client, key); got.UID != again.UID || !slices.Equal(got.Status.Items, []string{"mine"}) {
			t.Fatalf("server %s items %v", got.UID, got.Status.Items)
		}
	})
	t.Run("1.1 MB status", func(t *testing.T) {
		key := newWidget(t, e.Client)
		ft := &faultyTransport{plan: []plannedFault{{kind: fault5xxRetryAfter, after: true}}}
		p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil))
		if err != nil {
			t.Fatal(err)
		}
		big := strings.Repeat("x", 1100*1024)
		runs := 0
		if err := p.Retry(ctx, func(w *v1.Widget) error { runs++; return appendItem(big)(w) }); err != nil || runs != 1 {
			t.Fatalf("Retry = %v after %d runs", err, runs)
		}
		if n := countOf(get(t, e.Client, key).Status.Items, big); n != 1 {
			t.Fatalf("the big item is stored %d times", n)
		}
	})
}

// fastRetry makes Retry's waits short: the tests force their races.
var fastRetry = patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 8})

func countOf(items []string, item string) int {
	n := 0
	for _, it := range items {
		if it == item {
			n++
		}
	}
	return n
}

// decideMine makes the test's decision, appending "mine", through Retry or
// through a change and Flush, and returns how often the decision ran.
func decideMine(p *patcher.Patcher[*v1.Widget], retry bool) (int, error) {
	runs := 0
	mutate := func(w *v1.Widget) error { runs++; return appendItem("mine")(w) }
	if retry {
		err := p.Retry(ctx, mutate)
		return runs, err
	}
	_ = mutate(p.Object())
	return runs, p.Flush(ctx)
}
